import { describe, expect, it } from 'vitest';
import { until } from '../../testing/channels/fake-http.ts';
import { channelWorldPerTest } from '../../testing/channels/channel-harness.ts';
import { deploy } from '../../testing/channels/scenario-items.ts';
import { SlackDriver, slackPost } from '../../testing/channels/fake-slack.ts';

describe('slack specifics', () => {
  const world = channelWorldPerTest(() => new SlackDriver());

  it('[H6][H7] answers url_verification; refuses bad, missing and stale signatures with 401 and changes nothing', async () => {
    const { driver, w } = world;
    const events = `${w.t.gw.url}/channels/slack/events`;
    const challenge = JSON.stringify({ type: 'url_verification', challenge: 'chal-123' });
    const ok = await slackPost(events, driver.secret, challenge, 'application/json');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ challenge: 'chal-123' });
    const key = await w.sessionFromFirstMessage('deploy');
    const id = await w.ask(key, [deploy]);
    const prompt = await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the question');
    const msg = JSON.stringify({ type: 'event_callback', event: { type: 'message', channel: driver.channel, user: driver.ids.alice, text: 'forged', ts: '1.1' } });
    expect((await slackPost(events, 'wrong-secret', msg, 'application/json')).status).toBe(401);
    expect((await fetch(events, { method: 'POST', headers: { 'content-type': 'application/json' }, body: msg })).status).toBe(401);
    expect((await slackPost(events, driver.secret, msg, 'application/json', undefined, Math.floor(Date.now() / 1000) - 301)).status).toBe(401);
    expect((await slackPost(events, driver.secret, challenge, 'application/json', 'v0=' + '0'.repeat(64))).status).toBe(401);
    const action = driver.fake.messages.find((m) => m.ts === prompt.ref)!;
    const press = driver.interaction(driver.ids.alice, prompt.ref, String(action.blocks[1]?.elements?.[0]?.action_id));
    const interactions = `${w.t.gw.url}/channels/slack/interactions`;
    expect((await slackPost(interactions, 'wrong-secret', press, 'application/x-www-form-urlencoded')).status).toBe(401);
    expect((await w.question(id)).status).toBe('pending');
    expect((await w.t.gw.store.history(key, 10)).messages.some((m) => m.text === 'forged')).toBe(false);
  });

  it('[C2] an event Slack delivers twice (its retry) enters the session once', async () => {
    const { driver, w } = world;
    const key = await w.sessionFromFirstMessage('hello');
    const event = JSON.stringify({ type: 'event_callback', event_id: 'Ev1', event: { type: 'message', channel: driver.channel, user: driver.ids.alice, text: 'only once', ts: '1700000200.000001' } });
    for (let i = 0; i < 2; i++) expect((await slackPost(`${w.t.gw.url}/channels/slack/events`, driver.secret, event, 'application/json')).status).toBe(200);
    await driver.userSays(driver.ids.alice, 'after');
    await until(async () => (await w.t.gw.store.history(key, 20)).messages.find((m) => m.text === 'after'), 'the later message');
    expect((await w.t.gw.store.history(key, 20)).messages.filter((m) => m.text === 'only once')).toHaveLength(1);
  });

  it('[H2][H4] what Slack links (an email, a URL, a mention, a channel) enters the session and answers as the person typed it', async () => {
    const { driver, w } = world;
    const key = await w.sessionFromFirstMessage('deploy');
    const say = async (text: string, ts: string) => {
      const event = JSON.stringify({ type: 'event_callback', event_id: `Ev${ts}`, event: { type: 'message', channel: driver.channel, user: driver.ids.alice, text, ts } });
      expect((await slackPost(`${w.t.gw.url}/channels/slack/events`, driver.secret, event, 'application/json')).status).toBe(200);
    };
    await say('see <https://example.com/a?b=1&amp;c=2> and <http://example.org|example.org>, ask <@U0123ABC> or <!here> (<!channel|channel>) in <#C42|ops> &lt;3', '1700000300.000001');
    const typed = 'see https://example.com/a?b=1&c=2 and example.org, ask @U0123ABC or @here (@channel) in #ops <3';
    await until(async () => (await w.t.gw.store.history(key, 20)).messages.find((m) => m.text === typed), 'the message as typed');
    const id = await w.ask(key, [deploy]);
    await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the question');
    await say('<mailto:ops@example.com|ops@example.com>', '1700000300.000002');
    await until(async () => (await w.question(id)).status === 'answered', 'the answer');
    expect((await w.question(id)).answers).toEqual({ env: ['ops@example.com'] });
  });

  it('[H2][H4] a link whose words differ from its address keeps both, "the PR (https://…)"; text Slack linked as typed stays as typed', async () => {
    const { driver, w } = world;
    const key = await w.sessionFromFirstMessage('review');
    const text = 'read <https://git.example/pr/12|the PR>, write <mailto:ops@example.com|the ops list>, see <https://example.com/docs|http://example.com/docs>';
    const event = JSON.stringify({ type: 'event_callback', event_id: 'EvLinks', event: { type: 'message', channel: driver.channel, user: driver.ids.alice, text, ts: '1700000400.000001' } });
    expect((await slackPost(`${w.t.gw.url}/channels/slack/events`, driver.secret, event, 'application/json')).status).toBe(200);
    const typed = 'read the PR (https://git.example/pr/12), write the ops list (ops@example.com), see http://example.com/docs';
    await until(async () => (await w.t.gw.store.history(key, 20)).messages.find((m) => m.text.startsWith('read ')), 'the message');
    expect((await w.t.gw.store.history(key, 20)).messages.find((m) => m.text.startsWith('read '))?.text).toBe(typed);
  });

  it('[H4] a refused press is told to the presser alone', async () => {
    const { driver, w } = world;
    const key = await w.sessionFromFirstMessage('deploy');
    await w.ask(key, [deploy]);
    const prompt = await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the question');
    await driver.press(driver.ids.bob, prompt, 'Staging');
    const note = await until(() => driver.fake.ephemeral[0], 'the ephemeral note');
    expect(note).toEqual({ channel: driver.channel, user: driver.ids.bob, text: 'You may not answer this question.' });
  });
});
