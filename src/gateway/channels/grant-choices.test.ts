import { describe, expect, it } from 'vitest';
import { OFFER_AGENT, OFFER_PROJECT } from '../../answers/kinds/approval-offers.ts';
import { until } from '../../testing/channels/fake-http.ts';
import { DiscordDriver } from '../../testing/channels/fake-discord.ts';
import { SlackDriver } from '../../testing/channels/fake-slack.ts';
import { TelegramDriver } from '../../testing/channels/fake-telegram.ts';
import { channelWorldPerTest, type PlatformDriver } from '../../testing/channels/channel-harness.ts';

const drivers: (() => PlatformDriver)[] = [() => new TelegramDriver(), () => new SlackDriver(), () => new DiscordDriver()];
const CHOICE_REFUSED = 'You may not choose that: it needs operator.admin or operator.questions. Answer Allow for this request only.';

describe.each(drivers.map((make) => [make().name, make] as const))('%s channel: an offer wider than the person may make (G5)', (_name, make) => {
  const world = channelWorldPerTest(make);

  /** Alice (the guest) opens her conversation; a run of the agent there asks an approval in folder /srv/app, posted with its offers. */
  async function approvalPosted() {
    const { w, driver } = world;
    const key = await w.sessionFromFirstMessage('deploy please');
    const { runId } = await w.agent.call('run.start', { sessionKey: key });
    const { id } = await w.agent.call('question.request', { sessionKey: key, runId, approval: { tool: 'Bash', input: { command: 'make deploy' }, cwd: '/srv/app' } });
    const prompt = await until(() => driver.messages().find((m) => m.buttons.includes(OFFER_PROJECT)), 'the approval with its offers');
    return { key, id, prompt };
  }

  const stillAsked = async (id: string) => {
    const { w } = world;
    expect((await w.question(id)).status).toBe('pending');
    expect((await w.admin.call('policy.get', {})).grants).toEqual([]);
  };

  it('[G5][H4][A5] a press of the project offer by a guest is told the scopes it needs, makes no grant, and Allow still answers', async () => {
    const { id, prompt } = await approvalPosted();
    const { w, driver } = world;
    // Bob may not answer this question at all: his refusal keeps its words whatever he pressed.
    await driver.press(driver.ids.bob, prompt, OFFER_PROJECT);
    await until(() => driver.notices().includes('You may not answer this question.'), 'the refusal of one who may not answer');
    await driver.press(driver.ids.alice, prompt, OFFER_PROJECT);
    await until(() => driver.notices().includes(CHOICE_REFUSED), 'the refused choice');
    expect(driver.notices().join('\n')).not.toMatch(/guest|identity/);
    await stillAsked(id);
    expect(driver.messages().find((m) => m.ref === prompt.ref)?.buttons).toContain(OFFER_PROJECT);
    await driver.press(driver.ids.alice, prompt, 'Allow');
    await until(async () => (await w.question(id)).status === 'answered', 'the Allow');
    expect((await w.question(id)).answers).toEqual({ approval: ['Allow'] });
  });

  it('[G5][H4][PT5] a typed reply naming the agent offer is not sent and says which scopes that choice needs', async () => {
    const { key, id } = await approvalPosted();
    const { w, driver } = world;
    await driver.userSays(driver.ids.alice, OFFER_AGENT);
    const why = await until(() => driver.messages().find((m) => m.text.startsWith('Not sent:')), 'why nothing was sent');
    expect(why.text).toBe('Not sent: you may not choose that: it needs operator.admin or operator.questions. Answer Allow for this request only.');
    await stillAsked(id);
    expect((await w.t.gw.store.history(key, 20)).messages.some((m) => m.text === OFFER_AGENT)).toBe(false);
  });
});
