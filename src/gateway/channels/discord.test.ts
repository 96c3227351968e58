import { describe, expect, it } from 'vitest';
import { until } from '../../testing/channels/fake-http.ts';
import { channelWorldPerTest } from '../../testing/channels/channel-harness.ts';
import { deploy } from '../../testing/channels/scenario-items.ts';
import { DiscordDriver } from '../../testing/channels/fake-discord.ts';

describe('discord specifics', () => {
  const world = channelWorldPerTest(() => new DiscordDriver());

  it('[H6][H7] answers PING with PONG; refuses bad, missing and stale Ed25519 signatures with 401 and changes nothing', async () => {
    const { driver, w } = world;
    const ping = await driver.post(JSON.stringify({ id: '1', type: 1, application_id: driver.applicationId, token: 't', version: 1 }));
    expect(ping.status).toBe(200);
    expect(await ping.json()).toEqual({ type: 1 });
    expect(driver.fake.identifies).toHaveLength(1);
    const key = await w.sessionFromFirstMessage('deploy');
    const id = await w.ask(key, [deploy]);
    const prompt = await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the question');
    const message = driver.fake.messages.find((m) => m.id === prompt.ref)!;
    const press = driver.interaction(driver.ids.alice, prompt.ref, String(message.components[0].components[0].custom_id));
    const other = (await import('node:crypto')).generateKeyPairSync('ed25519');
    expect((await driver.post(press, { key: other.privateKey })).status).toBe(401);
    expect((await driver.post(press, { signature: 'zz' })).status).toBe(401);
    // Signed properly but long ago (a captured press sent again), or with a timestamp that is no number: refused.
    expect((await driver.post(press, { timestamp: String(Math.floor(Date.now() / 1000) - 3600) })).status).toBe(401);
    expect((await driver.post(press, { timestamp: 'soon' })).status).toBe(401);
    const unsigned = await fetch(`${w.t.gw.url}/channels/discord/interactions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: press });
    expect(unsigned.status).toBe(401);
    expect((await w.question(id)).status).toBe('pending');
    // The same body, signed properly, answers.
    expect((await driver.post(press)).status).toBe(200);
    await until(async () => (await w.question(id)).status === 'answered', 'the answer');
  });

  it('[S5][H7] a signed body that is JSON but no object (null, a number, a list) answers 400 and the gateway goes on', async () => {
    const { driver, w } = world;
    for (const body of ['null', '5', '[]', '"x"']) expect((await driver.post(body)).status).toBe(400);
    expect((await fetch(`${w.t.gw.url}/healthz`)).status).toBe(200);
    await w.sessionFromFirstMessage('still here');
  });

  it('[H5] the outcome\'s edit, like the post, lets no mention in a person\'s answer ping anyone', async () => {
    const { driver, w } = world;
    const key = await w.sessionFromFirstMessage('deploy');
    const id = await w.ask(key, [deploy]);
    const prompt = await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the question');
    await driver.userSays(driver.ids.alice, '@everyone decide');
    await until(async () => (await w.question(id)).status === 'answered', 'the answer');
    await until(() => driver.messages().find((m) => m.ref === prompt.ref && m.text.includes('Answered: @everyone decide')), 'the outcome');
    const bodies = [...driver.fake.http.callsOf('POST /channels/:id/messages'), ...driver.fake.http.callsOf('PATCH /channels/:id/messages/:id')].map((c) => c.body);
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) expect(body).toMatchObject({ allowed_mentions: { parse: [] } });
  });

  it('[H3][H5] a masked link in a question or an answer is posted as text, its address in sight', async () => {
    const { driver, w } = world;
    const key = await w.sessionFromFirstMessage('deploy');
    const id = await w.ask(key, [{ ...deploy, question: 'Read [the runbook](https://evil.test/x) first?' }]);
    const prompt = await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the question');
    expect(prompt.text).toContain('Read [the runbook]\u200b(https://evil.test/x) first?');
    await driver.userSays(driver.ids.alice, '[Staging](https://evil.test/y)');
    await until(async () => (await w.question(id)).status === 'answered', 'the answer');
    const outcome = await until(() => driver.messages().find((m) => m.ref === prompt.ref && m.buttons.length === 0), 'the outcome');
    expect(outcome.text).toContain('Answered: [Staging]\u200b(https://evil.test/y)');
    for (const m of driver.messages()) expect(m.text).not.toContain('](');
  });

  it('[H4] a refused press gets an ephemeral follow-up for the presser alone', async () => {
    const { driver, w } = world;
    const key = await w.sessionFromFirstMessage('deploy');
    await w.ask(key, [deploy]);
    const prompt = await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the question');
    await driver.press(driver.ids.bob, prompt, 'Staging');
    const note = await until(() => driver.fake.followUps[0], 'the follow-up');
    expect(note).toMatchObject({ content: 'You may not answer this question.', flags: 64 });
  });
});

describe('[H7] the Discord apiRoot', () => {
  it('[H7] requests go to apiRoot as given: a root without a version suffix gets none added, one with it keeps it', async () => {
    const { createServer } = await import('node:http');
    const { discordRest } = await import('./discord.ts');
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: '99' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      await discordRest(origin).setToken('t').post('/channels/42/messages', { body: { content: 'hi' } });
      await discordRest(`${origin}/api/v10`).setToken('t').post('/channels/42/messages', { body: { content: 'hi' } });
      expect(paths).toEqual(['/channels/42/messages', '/api/v10/channels/42/messages']);
    } finally {
      server.close();
    }
  });
});
