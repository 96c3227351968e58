import { beforeEach, describe, expect, it } from 'vitest';
import { deploy, lunch, notify } from '../../testing/channels/scenario-items.ts';
import { until } from '../../testing/channels/fake-http.ts';
import { channelWorldPerTest, type ChannelWorld, type PlatformDriver, type SeenMessage } from '../../testing/channels/channel-harness.ts';
import { BUTTONS, EVERY_PLATFORM } from '../../testing/channels/every-platform.ts';

// Who and what answers on each platform: presses and replies (H4, PT1-PT5), unmapped and refused users, credential-looking replies (W3).
describe.each(EVERY_PLATFORM)('%s channel', (name, make) => {
  const current = channelWorldPerTest(make);
  let driver: PlatformDriver;
  let w: ChannelWorld;
  beforeEach(() => {
    ({ driver, w } = current);
  });

  const posted = (what: string, fn: (m: SeenMessage) => boolean) => until(() => driver.messages().find(fn), what);

  it('[H1][H4] an unmapped user is ignored; a mapped user who may not answer (A3) answers nothing', async () => {
    await driver.userSays(driver.ids.carol, 'hi from carol');
    await until(() => w.logs.find((l) => l.includes(`ignored a message from unmapped user ${driver.ids.carol}`)), 'the log line');
    expect((await w.t.gw.store.listSessions())).toHaveLength(0);
    const key = await w.sessionFromFirstMessage('deploy please');
    const id = await w.ask(key, [deploy]);
    const prompt = await posted('the question', (m) => m.buttons.includes('Staging'));
    await driver.press(driver.ids.carol, prompt, 'Staging');
    await until(() => w.logs.find((l) => l.includes(`ignored a button press from unmapped user ${driver.ids.carol}`)), 'the press log line');
    await driver.press(driver.ids.bob, prompt, 'Staging');
    await until(() => w.logs.find((l) => l.includes('a button press was refused')), 'the refusal');
    await driver.userSays(driver.ids.bob, '1');
    await driver.userSays(driver.ids.carol, '1');
    await until(() => w.logs.find((l) => l.includes('a message was not sent')), 'the refused reply');
    await until(() => w.logs.filter((l) => l.includes(`ignored a message from unmapped user ${driver.ids.carol}`)).length === 2, 'the ignored reply');
    expect((await w.question(id)).status).toBe('pending');
    expect(driver.messages().find((m) => m.ref === prompt.ref)?.buttons).toEqual(BUTTONS[name]);
  });

  it('[PT1] a reply naming an option with & < > takes it (as the platform delivers the text)', async () => {
    const key = await w.sessionFromFirstMessage('team?');
    const id = await w.ask(key, [{ id: 'team', header: 'Team', question: 'Which team?', options: [{ label: 'R&D' }, { label: '<Ops>' }] }]);
    await posted('the question', (m) => m.buttons.includes('R&D'));
    await driver.userSays(driver.ids.alice, 'r&d');
    await until(async () => (await w.question(id)).status === 'answered', 'the answer');
    expect((await w.question(id)).answers).toEqual({ team: ['R&D'] });
  });

  it('[H4][PT1] Other by reply: your own words answer the single-select question, and the message shows them', async () => {
    const key = await w.sessionFromFirstMessage('deploy please');
    const id = await w.ask(key, [deploy]);
    const prompt = await posted('the question', (m) => m.buttons.includes('Staging'));
    if (name === 'telegram') {
      await driver.press(driver.ids.alice, prompt, 'Other…');
      await posted('the Force Reply prompt', (m) => !!m.forceReply);
    }
    await driver.userSays(driver.ids.alice, 'Canary first');
    await until(async () => (await w.question(id)).status === 'answered', 'the answer');
    const q = await w.question(id);
    expect(q.answers).toEqual({ env: ['Canary first'] });
    expect(q.resolvedBy).toMatchObject({ identity: 'guest', surface: `channel:${name}` });
    await posted('the outcome', (m) => m.ref === prompt.ref && m.text.endsWith('Answered: Canary first') && m.buttons.length === 0);
  });

  it('[H4][PT1] a number reply takes that option', async () => {
    const key = await w.sessionFromFirstMessage('deploy please');
    const id = await w.ask(key, [deploy]);
    await posted('the question', (m) => m.buttons.includes('Staging'));
    await driver.userSays(driver.ids.alice, '2');
    await until(async () => (await w.question(id)).status === 'answered', 'the answer');
    expect((await w.question(id)).answers).toEqual({ env: ['Production'] });
  });

  it('[H3][PT2][PT3] multi-select and two-question prompts are answered by text', async () => {
    const key = await w.sessionFromFirstMessage('deploy please');
    const multi = await w.ask(key, [notify]);
    await posted('the multi-select prompt', (m) => m.text.includes('Who should hear?'));
    await driver.userSays(driver.ids.alice, '1, 3');
    await until(async () => (await w.question(multi)).status === 'answered', 'the multi-select answer');
    expect((await w.question(multi)).answers).toEqual({ notify: ['Email', 'Pager'] });
    const two = await w.ask(key, [deploy, notify]);
    const prompt = await posted('the two-question prompt', (m) => m.text.startsWith('1. Environment'));
    await driver.userSays(driver.ids.alice, '1: 2\n2: Slack, the on-call phone');
    await until(async () => (await w.question(two)).status === 'answered', 'the two-question answer');
    const q = await w.question(two);
    expect(q.answers).toEqual({ env: ['Production'], notify: ['Slack', 'the on-call phone'] });
    expect(q.resolvedBy?.surface).toBe(`channel:${name}`);
    await posted('the outcome', (m) => m.ref === prompt.ref && m.text.endsWith('Answered: Environment: Production · Notify: Slack, the on-call phone'));
  });

  it('[PT3][PT5] a reply that leaves a question out sends nothing and says which; skip by text declines', async () => {
    const key = await w.sessionFromFirstMessage('deploy please');
    const id = await w.ask(key, [deploy, notify]);
    await posted('the prompt', (m) => m.text.startsWith('1. Environment'));
    await driver.userSays(driver.ids.alice, '1: 1');
    const why = await posted('why nothing was sent', (m) => m.text.startsWith('Not sent:'));
    expect(why.text).toContain('Notify');
    expect((await w.question(id)).status).toBe('pending');
    expect((await w.t.gw.store.history(key, 20)).messages.some((m) => m.text === '1: 1')).toBe(false);
    await driver.userSays(driver.ids.alice, 'SKIP');
    await until(async () => (await w.question(id)).status === 'skipped', 'the skip');
    expect((await w.question(id)).resolvedBy?.surface).toBe(`channel:${name}`);
  });

  it('[W3] a reply that looks like a credential is held until its sender confirms with send', async () => {
    const key = await w.sessionFromFirstMessage('lunch?');
    const id = await w.ask(key, [lunch], { mode: 'async' });
    await posted('the question', (m) => m.buttons.includes('Sushi'));
    await driver.userSays(driver.ids.alice, 'sk-abcdefghijklmnopqrstuvwxyz123456');
    const warning = await posted('the warning', (m) => m.text.startsWith('This looks like'));
    expect(warning.text).not.toContain('sk-abc');
    expect((await w.t.gw.store.history(key, 20)).messages.some((m) => m.text.startsWith('sk-'))).toBe(false);
    expect((await w.question(id)).status).toBe('pending');
    await driver.userSays(driver.ids.alice, 'send');
    await until(async () => (await w.question(id)).status === 'answered', 'the confirmed answer');
    expect((await w.question(id)).resolvedBy).toMatchObject({ identity: 'guest', surface: `channel:${name}` });
  });

  it('[H4][Q9] a press on an async question answers it with an ordinary chat message that names it', async () => {
    const key = await w.sessionFromFirstMessage('lunch?');
    const id = await w.ask(key, [lunch], { mode: 'async' });
    const prompt = await posted('the question', (m) => m.buttons.includes('Sushi'));
    await driver.press(driver.ids.alice, prompt, 'Sushi');
    await posted('the outcome', (m) => m.ref === prompt.ref && m.text.endsWith('Answered: Sushi'));
    const q = await w.question(id);
    expect(q).toMatchObject({ status: 'answered', answers: { lunch: ['Sushi'] }, resolvedBy: { identity: 'guest', surface: `channel:${name}` } });
    const reply = (await w.t.gw.store.history(key, 20)).messages.find((m) => m.id === q.replyMessageId);
    expect(reply).toMatchObject({ authorId: 'guest', replyTo: { questionId: id } });
  });

  it('[H4] a press answers the question its token names: of a blocking and an async prompt in one conversation, only the pressed one', async () => {
    const key = await w.sessionFromFirstMessage('deploy, and lunch?');
    const blocking = await w.ask(key, [deploy]);
    const later = await w.ask(key, [lunch], { mode: 'async' });
    await posted('the blocking question', (m) => m.buttons.includes('Staging'));
    const prompt = await posted('the async question', (m) => m.buttons.includes('Sushi'));
    await driver.press(driver.ids.alice, prompt, 'Sushi');
    await until(async () => (await w.question(later)).status === 'answered', 'the async answer');
    expect((await w.question(later)).answers).toEqual({ lunch: ['Sushi'] });
    await posted('the outcome', (m) => m.ref === prompt.ref && m.text.endsWith('Answered: Sushi'));
    expect((await w.question(blocking)).status).toBe('pending');
  });

  it('[H4] a press that arrives from another conversation is refused and the question stays pending', async () => {
    const key = await w.sessionFromFirstMessage('deploy');
    const id = await w.ask(key, [deploy]);
    const prompt = await posted('the question', (m) => m.buttons.includes('Staging'));
    await driver.press(driver.ids.alice, prompt, 'Staging', driver.otherConversation);
    await until(() => driver.notices().includes('This question is not here any more.'), 'the refusal');
    expect((await w.question(id)).status).toBe('pending');
    // The same press in the prompt's own conversation answers it.
    await driver.press(driver.ids.alice, prompt, 'Staging');
    await until(async () => (await w.question(id)).status === 'answered', 'the answer');
  });

  it('[W3] after the credential warning any reply but send drops the held text and sends nothing', async () => {
    const key = await w.sessionFromFirstMessage('lunch?');
    const id = await w.ask(key, [lunch], { mode: 'async' });
    await posted('the question', (m) => m.buttons.includes('Sushi'));
    await driver.userSays(driver.ids.alice, 'sk-abcdefghijklmnopqrstuvwxyz123456');
    await posted('the warning', (m) => m.text.startsWith('This looks like'));
    await driver.userSays(driver.ids.alice, 'no');
    await posted('what became of it', (m) => m.text === 'Dropped: nothing was sent.');
    // `send` now holds nothing to release: it is an ordinary reply, not the credential.
    await driver.userSays(driver.ids.alice, 'send');
    await until(async () => (await w.t.gw.store.history(key, 20)).messages.find((m) => m.text.includes('send')), 'the later reply');
    const texts = (await w.t.gw.store.history(key, 20)).messages.map((m) => m.text);
    expect(texts.some((t) => t.includes('sk-abc'))).toBe(false);
    expect(texts.some((t) => t === 'no' || t.endsWith(': no'))).toBe(false);
    expect((await w.question(id)).answers ?? {}).not.toEqual({ lunch: ['sk-abcdefghijklmnopqrstuvwxyz123456'] });
  });
});
