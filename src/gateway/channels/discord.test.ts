import { describe, expect, it } from 'vitest';
import { until } from './testing/fake-http.ts';
import { startChannelWorld } from './testing/channel-harness.ts';
import { deploy } from './testing/scenario-items.ts';
import { DiscordDriver } from './testing/fake-discord.ts';

describe('discord specifics', () => {
  it('[H6][H7] answers PING with PONG; refuses bad and missing Ed25519 signatures with 401 and changes nothing', async () => {
    const driver = new DiscordDriver();
    const w = await startChannelWorld(driver);
    try {
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
      const unsigned = await fetch(`${w.t.gw.url}/channels/discord/interactions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: press });
      expect(unsigned.status).toBe(401);
      expect((await w.question(id)).status).toBe('pending');
      // The same body, signed properly, answers.
      expect((await driver.post(press)).status).toBe(200);
      await until(async () => (await w.question(id)).status === 'answered', 'the answer');
    } finally {
      await w.close();
    }
  });

  it('[H4] a refused press gets an ephemeral follow-up for the presser alone', async () => {
    const driver = new DiscordDriver();
    const w = await startChannelWorld(driver);
    try {
      const key = await w.sessionFromFirstMessage('deploy');
      await w.ask(key, [deploy]);
      const prompt = await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the question');
      await driver.press(driver.ids.bob, prompt, 'Staging');
      const note = await until(() => driver.fake.followUps[0], 'the follow-up');
      expect(note).toMatchObject({ content: 'You may not answer this question.', flags: 64 });
    } finally {
      await w.close();
    }
  });
});
