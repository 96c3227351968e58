import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../testing/gateway-harness.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { deploy } from '../../testing/channels/scenario-items.ts';
import { until } from '../../testing/channels/fake-http.ts';
import { DiscordDriver } from '../../testing/channels/fake-discord.ts';
import { SlackDriver } from '../../testing/channels/fake-slack.ts';
import { TelegramDriver } from '../../testing/channels/fake-telegram.ts';
import { policyConfig } from '../../testing/policy-config.ts';
import { startChannelWorld, type ChannelWorld, type PlatformDriver, type SeenMessage } from '../../testing/channels/channel-harness.ts';

/** Alice (identity guest, named Alice) owns her conversation's session; its questions are routed to her first, then to admin. */
const config = {
  identities: testConfig.identities.map((i) => (i.id === 'guest' ? { ...i, name: 'Alice' } : i)),
  routing: {
    escalations: { team: { steps: [{ notify: ['session-owner'], wait: '5m' }, { notify: ['identity:admin'], wait: '10m' }], exhausted: 'keep' as const } },
    routes: [{ match: { kind: ['question' as const] }, escalation: 'team' }],
  },
};

const drivers: (() => PlatformDriver)[] = [() => new TelegramDriver(), () => new SlackDriver(), () => new DiscordDriver()];

describe.each(drivers.map((make) => [make().name, make] as const))('a routed question in a %s channel (E4, E7)', (name, make) => {
  let driver: PlatformDriver;
  let w: ChannelWorld;
  beforeEach(async () => {
    driver = make();
    w = await startChannelWorld(driver, { config });
  });
  afterEach(async () => {
    await w.close();
  });

  const posted = (what: string, fn: (m: SeenMessage) => boolean) => until(() => driver.messages().find(fn), what);
  const surface = { telegram: 'Telegram', slack: 'Slack', discord: 'Discord' }[name];

  it('[E4][E7] "I\'m on it" is a button under the prompt: it takes the question without answering; the answer\'s edit says who answered, and where', async () => {
    const key = await w.sessionFromFirstMessage('deploy');
    const id = await w.ask(key, [deploy]);
    const prompt = await posted('the prompt', (m) => m.buttons.includes('Staging'));
    expect(prompt.buttons).toContain("I'm on it");
    await driver.press(driver.ids.alice, prompt, "I'm on it");
    await posted('who is on it', (m) => m.text === 'Alice is on it');
    const q = await w.question(id);
    expect(q.status).toBe('pending');
    expect(q.route?.ackedBy).toMatchObject({ identity: 'guest', name: 'Alice' });
    await driver.press(driver.ids.alice, prompt, 'Staging');
    const edited = await posted('the outcome', (m) => m.ref === prompt.ref && m.buttons.length === 0);
    expect(edited.text).toContain(`Answered by Alice · ${surface}`);
  });

  it('[E4] a reply `ack` takes the question and answers nothing; a press from someone it does not wait for is refused', async () => {
    const key = await w.sessionFromFirstMessage('deploy');
    const id = await w.ask(key, [deploy]);
    const prompt = await posted('the prompt', (m) => m.buttons.includes('Staging'));
    await driver.press(driver.ids.bob, prompt, "I'm on it");
    await until(() => driver.notices().includes('You may not answer this question.') || undefined, 'the refusal');
    expect((await w.question(id)).route?.ackedBy).toBeUndefined();
    await driver.userSays(driver.ids.alice, 'ack');
    await posted('who is on it', (m) => m.text === 'Alice is on it');
    const q = await w.question(id);
    expect(q.status).toBe('pending');
    expect(q.route?.ackedBy?.identity).toBe('guest');
    expect(q.answers).toBeUndefined();
  });

  it('[E4] two people\'s acknowledgements in one millisecond are each said once; the hand-off after them says neither again', async () => {
    await w.close();
    driver = make();
    w = await startChannelWorld(driver, { config, clock: new FakeClock() });
    const key = await w.sessionFromFirstMessage('deploy');
    const id = await w.ask(key, [deploy]);
    const prompt = await posted('the prompt', (m) => m.buttons.includes('Staging'));
    await driver.press(driver.ids.alice, prompt, "I'm on it");
    await posted('who is on it', (m) => m.text === 'Alice is on it');
    await w.admin.call('question.ack', { id });
    await posted('the second one on it', (m) => m.text === 'admin is on it');
    await w.admin.call('question.handoff', { id, to: 'identity:admin' });
    await driver.press(driver.ids.alice, prompt, 'Staging');
    await posted('the outcome', (m) => m.ref === prompt.ref && m.buttons.length === 0);
    expect(driver.messages().filter((m) => m.text.endsWith(' is on it')).map((m) => m.text)).toEqual(['Alice is on it', 'admin is on it']);
  });

  it('[E4] "I\'m on it" taken elsewhere (the dock, a TUI) is said in the conversation too, once, though the route changes again', async () => {
    const key = await w.sessionFromFirstMessage('deploy');
    const id = await w.ask(key, [deploy]);
    await posted('the prompt', (m) => m.buttons.includes('Staging'));
    await w.admin.call('question.ack', { id });
    await posted('who is on it', (m) => m.text === 'admin is on it');
    await w.admin.call('question.handoff', { id, to: 'identity:admin', note: 'mine' });
    await until(async () => (await w.question(id)).route?.handoffs?.length === 1 || undefined, 'the hand-off');
    await driver.press(driver.ids.alice, (await posted('the prompt', (m) => m.buttons.includes('Staging'))), 'Staging');
    await posted('the outcome', (m) => m.buttons.length === 0 && m.text.includes('Answered by Alice'));
    expect(driver.messages().filter((m) => m.text === 'admin is on it')).toHaveLength(1);
  });
});

/** Approvals in Alice's conversation need Allow from her and Ana (the admin) (E5); the policy asks about anything. */
const quorumConfig = {
  ...policyConfig,
  identities: policyConfig.identities.map((i) => (i.id === 'guest' ? { ...i, name: 'Alice' } : i.id === 'admin' ? { ...i, name: 'Ana' } : i)),
  routing: {
    escalations: { review: { steps: [{ notify: ['session-owner', 'identity:admin'], wait: '30m' }], exhausted: 'deny' as const } },
    routes: [{ match: { kind: ['approval' as const] }, escalation: 'review', quorum: 2 }],
  },
};

describe.each(drivers.map((make) => [make().name, make] as const))('a routed approval in a %s channel (E5, E7)', (name, make) => {
  let driver: PlatformDriver;
  let w: ChannelWorld;
  beforeEach(async () => {
    driver = make();
    w = await startChannelWorld(driver, { config: quorumConfig });
  });
  afterEach(async () => {
    await w.close();
  });

  const surface = { telegram: 'Telegram', slack: 'Slack', discord: 'Discord' }[name];
  const approve = async (sessionKey: string, command: string) => {
    const { runId } = await w.agent.call('run.start', { sessionKey });
    const { id } = await w.agent.call('question.request', { sessionKey, runId, approval: { tool: 'Bash', input: { command }, cwd: '/srv/app' } });
    const prompt = await until(() => driver.messages().find((m) => m.text.includes(command) && m.buttons.includes('Deny')), `the prompt for ${command}`);
    return { id, prompt };
  };
  const edited = (prompt: SeenMessage) => until(() => driver.messages().find((m) => m.ref === prompt.ref && m.buttons.length === 0), 'the outcome');

  it('[E7][E5] the edit reads "Answered by <name> · <surface>" under the Deny or Allow; a completed quorum lists its approvers on a line of their own', async () => {
    const key = await w.sessionFromFirstMessage('deploy');
    const denied = await approve(key, 'make deploy');
    await driver.press(driver.ids.alice, denied.prompt, 'Deny');
    expect((await edited(denied.prompt)).text.split('\n\n').at(-1)).toBe(`Answered: Deny\nAnswered by Alice · ${surface}`);

    const allowed = await approve(key, 'make release');
    expect(await w.admin.call('question.resolve', { id: allowed.id, answers: { approval: ['Allow'] } })).toMatchObject({ status: 'pending' });
    await driver.press(driver.ids.alice, allowed.prompt, 'Allow');
    expect((await edited(allowed.prompt)).text.split('\n\n').at(-1)).toBe(`Answered: Allow\nAnswered by Alice · ${surface}\nApprovals: Ana, Alice`);
    expect((await w.question(allowed.id)).resolvedBy).toMatchObject({ identity: 'guest', name: 'Alice' });
  });

  it('[E5] a held Allow tells its voter it counted and keeps the buttons for the next approver; their second press counts once', async () => {
    const key = await w.sessionFromFirstMessage('deploy');
    const { id, prompt } = await approve(key, 'make release');
    await driver.press(driver.ids.alice, prompt, 'Allow');
    const counted = 'Approval counted: 1 of 2 approvals (Alice). Waiting for 1 more person.';
    await until(() => driver.notices().includes(counted) || undefined, 'the held vote\'s notice');
    expect(driver.notices().some((n) => n.startsWith('Answered'))).toBe(false);
    expect(driver.messages().find((m) => m.ref === prompt.ref)?.buttons).toContain('Allow');
    await driver.press(driver.ids.alice, prompt, 'Allow');
    await until(() => driver.notices().includes(counted.replace('Approval counted', 'Your approval was already counted')) || undefined, 'the repeat\'s notice');
    const q = await w.question(id);
    expect(q.status).toBe('pending');
    expect(q.route?.quorum?.approvals.map((a) => a.identity)).toEqual(['guest']);
  });

  it('[E5] a reply `Allow` held short of the quorum is told it counted, in the conversation', async () => {
    const key = await w.sessionFromFirstMessage('deploy');
    const { id } = await approve(key, 'make release');
    await driver.userSays(driver.ids.alice, 'Allow');
    await until(() => driver.messages().find((m) => m.text === 'Approval counted: 1 of 2 approvals (Alice). Waiting for 1 more person.'), 'the held reply\'s note');
    expect((await w.question(id)).status).toBe('pending');
  });

  it('[E5] the same person\'s Allow from the Control UI, then a press here: it was already counted, the question still waits for Ana', async () => {
    const key = await w.sessionFromFirstMessage('deploy');
    const { id, prompt } = await approve(key, 'make release');
    const alice = await w.t.connect('guest');
    expect(await alice.call('question.resolve', { id, answers: { approval: ['Allow'] }, surface: 'control-ui' })).toMatchObject({ status: 'pending' });
    await driver.press(driver.ids.alice, prompt, 'Allow');
    await until(() => driver.notices().includes('Your approval was already counted: 1 of 2 approvals (Alice). Waiting for 1 more person.') || undefined, 'the repeat\'s notice');
    const q = await w.question(id);
    expect(q.status).toBe('pending');
    expect(q.route?.quorum?.approvals).toEqual([expect.objectContaining({ identity: 'guest', surface: 'control-ui' })]);
  });
});
