import { beforeEach, describe, expect, it } from 'vitest';
import { readablePrompt } from '../../answers/readable-prompt.ts';
import { deploy, longItem, notify } from '../../testing/channels/scenario-items.ts';
import { until } from '../../testing/channels/fake-http.ts';
import { channelWorldPerTest, type ChannelWorld, type PlatformDriver, type SeenMessage } from '../../testing/channels/channel-harness.ts';
import { BUTTONS, EVERY_PLATFORM } from '../../testing/channels/every-platform.ts';

/** How much text one message may carry on each platform (Slack's counted after its escaping; none here). */
const LIMIT: Record<string, number> = { telegram: 4096, slack: 3000, discord: 2000 };

// What each platform shows: readiness, prompts (buttons, readable text, parts, approvals' detail), outcomes and the agent's posts (H1-H3, H5, H6); answering by press or reply is in channels-answers.test.ts.
describe.each(EVERY_PLATFORM)('%s channel', (name, make) => {
  const current = channelWorldPerTest(make);
  let driver: PlatformDriver;
  let w: ChannelWorld;
  beforeEach(() => {
    ({ driver, w } = current);
  });

  const posted = (what: string, fn: (m: SeenMessage) => boolean) => until(() => driver.messages().find(fn), what);

  it('[H1][H2] says ready; a mapped user\'s first message makes a session she owns, sent as chat.send from her', async () => {
    expect(w.announced).toContain(`askdock channel ${name} ready`);
    const key = await w.sessionFromFirstMessage('hello there');
    expect((await w.t.gw.store.getSession(key))?.createdBy).toBe('guest');
    const history = await until(async () => (await w.t.gw.store.history(key, 10)).messages.find((m) => m.text === 'hello there'), 'the message');
    expect(history).toMatchObject({ role: 'user', authorId: 'guest' });
    await driver.userSays(driver.ids.alice, 'second');
    await until(async () => (await w.t.gw.store.history(key, 10)).messages.find((m) => m.text === 'second'), 'the second message');
    expect((await w.t.gw.store.listSessions())).toHaveLength(1);
  });

  it('[P3][H2] a NUL (U+0000) the platform delivers is dropped from the text, not the message', async () => {
    const key = await w.sessionFromFirstMessage('hel\u0000lo');
    await until(async () => (await w.t.gw.store.history(key, 10)).messages.find((m) => m.text === 'hello'), 'the message without its NUL');
  });

  it('[H3][H4][H5] one single-select question gets native buttons; a press answers it and the message shows the outcome', async () => {
    const key = await w.sessionFromFirstMessage('deploy please');
    const id = await w.ask(key, [deploy]);
    const prompt = await posted('the question', (m) => m.buttons.includes('Staging'));
    expect(prompt.buttons).toEqual(BUTTONS[name]);
    expect(prompt.text).toContain('Where should it deploy?');
    await driver.press(driver.ids.alice, prompt, 'Staging');
    await until(async () => (await w.question(id)).status === 'answered', 'the answer');
    const q = await w.question(id);
    expect(q.answers).toEqual({ env: ['Staging'] });
    expect(q.resolvedBy).toMatchObject({ identity: 'guest', surface: `channel:${name}` });
    const edited = await posted('the outcome', (m) => m.ref === prompt.ref && m.text.includes('Answered: Staging'));
    expect(edited.buttons).toEqual([]);
  });

  it('[X2] an approval\'s detail goes under its prompt as a code block cut to fit the message, with the question page\'s address', async () => {
    const key = await w.sessionFromFirstMessage('edit please');
    const detail = Array.from({ length: 200 }, (_, i) => `+ line ${i + 1} <b>&amp;</b> \`\`\` ${'x'.repeat(40)}`).join('\n');
    const id = await w.ask(key, [{ ...deploy, header: 'Edit', question: 'Allow Edit src/app.ts?', options: [{ label: 'Allow' }, { label: 'Deny' }], detail }]);
    const prompt = await posted('the approval', (m) => m.buttons.includes('Allow'));
    expect(prompt.buttons).toEqual(BUTTONS[name].map((b) => (b === 'Staging' ? 'Allow' : b === 'Production' ? 'Deny' : b)));
    expect(prompt.text).toContain('Allow Edit src/app.ts?');
    expect(prompt.text).toContain(`${w.t.gw.url}/q/${id}`);
    const code = prompt.code ?? '';
    expect(code.split('\n')[0].replaceAll('\u200b', '')).toBe(detail.split('\n')[0]);
    expect(code).toMatch(/\n… \d+ more lines$/);
    // Slack's code block is a section of its own (counted escaped); elsewhere text and block share one message.
    const measured = name === 'slack' ? code.replace(/[&<>]/g, '&amp;').length : prompt.text.length;
    expect(measured).toBeLessThanOrEqual(LIMIT[name]);
    // Markup in a detail stays text; only a ``` that would end the block early is broken.
    expect(code.replaceAll('\u200b', '')).toContain('<b>&amp;</b> ```');
  });

  it('[H5] Skip declines the prompt and the message says Skipped', async () => {
    const key = await w.sessionFromFirstMessage('deploy please');
    const id = await w.ask(key, [deploy]);
    const prompt = await posted('the question', (m) => m.buttons.includes('Skip'));
    await driver.press(driver.ids.alice, prompt, 'Skip');
    await posted('Skipped', (m) => m.ref === prompt.ref && m.text.includes('Skipped') && m.buttons.length === 0);
    expect((await w.question(id)).status).toBe('skipped');
    expect((await w.question(id)).resolvedBy?.surface).toBe(`channel:${name}`);
  });

  it('[H3] multi-select and two-question prompts are posted as readable text, without buttons', async () => {
    const key = await w.sessionFromFirstMessage('deploy please');
    const multi = await w.ask(key, [notify]);
    const first = await posted('the multi-select prompt', (m) => m.text.includes('Who should hear?'));
    expect(first.text).toBe(readablePrompt((await w.question(multi)).questions));
    expect(first.buttons).toEqual([]);
    await w.agent.call('question.resolve', { id: multi, cancel: true });
    const two = await w.ask(key, [deploy, notify]);
    const second = await posted('the two-question prompt', (m) => m.text.startsWith('1. Environment'));
    expect(second.text).toBe(readablePrompt((await w.question(two)).questions));
    expect(second.text).toContain('2. Notify: Who should hear? (choose one or more)');
    expect(second.buttons).toEqual([]);
  });

  it('[H5] a question answered elsewhere edits the posted message; cancelled ones say Cancelled', async () => {
    const key = await w.sessionFromFirstMessage('deploy please');
    const id = await w.ask(key, [deploy]);
    const prompt = await posted('the question', (m) => m.buttons.includes('Production'));
    await w.admin.call('question.resolve', { id, answers: { env: ['Production'] } });
    await posted('Answered: Production', (m) => m.ref === prompt.ref && m.text.endsWith('Answered: Production') && m.buttons.length === 0);
    const next = await w.ask(key, [deploy]);
    const again = await posted('the next question', (m) => m.ref !== prompt.ref && m.buttons.includes('Staging'));
    await w.agent.call('question.resolve', { id: next, cancel: true });
    await posted('Cancelled', (m) => m.ref === again.ref && m.text.endsWith('Cancelled') && m.buttons.length === 0);
  });

  it('[H3][H4] a question without a run is posted with its buttons and a notice; a press or a reply answers nothing', async () => {
    const key = await w.sessionFromFirstMessage('hello');
    const id = await w.ask(key, [deploy], { noRun: true });
    const prompt = await posted('the question', (m) => m.text.includes('Where should it deploy?'));
    expect(prompt.buttons).toEqual(BUTTONS[name]);
    expect(prompt.text).toContain('This question can only be answered in the Control UI or the TUI.');
    expect(prompt.text).not.toContain('Or reply with your own words');
    await driver.press(driver.ids.alice, prompt, 'Staging');
    await driver.userSays(driver.ids.alice, 'Staging');
    await until(async () => (await w.t.gw.store.history(key, 10)).messages.find((m) => m.text === 'Staging'), 'the ordinary message');
    expect((await w.question(id)).status).toBe('pending');
  });

  it('[H2][H3][H5] a prompt or a reply longer than one message allows goes in parts within the limit, nothing lost; the outcome edits the last', async () => {
    const key = await w.sessionFromFirstMessage('plan');
    const id = await w.ask(key, [longItem(1, 'First'), longItem(2, 'Second'), longItem(3, 'Third')]);
    const parts = await until(() => {
      const ms = driver.messages().filter((m) => /Part [123]|Reply with one line/.test(m.text));
      return ms.some((m) => m.text.includes('Reply with one line per question')) ? ms : undefined;
    }, 'every part of the prompt');
    expect(parts.length).toBeGreaterThan(1);
    for (const m of parts) expect(m.text.length, 'a part within the platform limit').toBeLessThanOrEqual(LIMIT[name]);
    const whole = parts.map((m) => m.text).join('\n');
    for (const what of ['First', 'Second', 'Third', 'Delta xxx']) expect(whole).toContain(what);
    await driver.userSays(driver.ids.alice, '1: 1\n2: 2\n3: 4');
    await until(async () => (await w.question(id)).status === 'answered', 'the answer');
    const last = parts[parts.length - 1];
    const edited = await posted('the outcome on the last part', (m) => m.ref === last.ref && m.text.includes('Answered'));
    expect(edited.text).toMatch(/Part 3: Delta$|Delta$/);
    expect(edited.text.length).toBeLessThanOrEqual(LIMIT[name]);

    const { runId } = await w.agent.call('run.start', { sessionKey: key });
    const reply = Array.from({ length: 300 }, (_, i) => `Line ${i} of the plan, with a little detail.`).join('\n');
    await w.agent.call('chat.inject', { runId, text: reply, state: 'final' });
    const lines = await until(() => {
      const ms = driver.messages().filter((m) => m.text.startsWith('Line '));
      return ms.some((m) => m.text.endsWith('Line 299 of the plan, with a little detail.')) ? ms : undefined;
    }, 'every part of the reply');
    expect(lines.length).toBeGreaterThan(1);
    for (const m of lines) expect(m.text.length).toBeLessThanOrEqual(LIMIT[name]);
    expect(lines.map((m) => m.text).join('\n')).toBe(reply);
  });

  it('[H2] the agent\'s final messages are posted back to the conversation', async () => {
    const key = await w.sessionFromFirstMessage('hello');
    const { runId } = await w.agent.call('run.start', { sessionKey: key });
    await w.agent.call('chat.inject', { runId, text: 'typing…', state: 'delta' });
    await w.agent.call('chat.inject', { runId, text: 'Hello, Alice', state: 'final' });
    await posted('the reply', (m) => m.text === 'Hello, Alice');
    expect(driver.messages().some((m) => m.text === 'typing…')).toBe(false);
  });

  it('[A3][H2] a privileged question and its reply are never posted to the conversation, whose identity may not see them', async () => {
    const key = await w.sessionFromFirstMessage('hello');
    const { id } = await w.agent.call('question.request', { sessionKey: key, privileged: true, mode: 'async', questions: [deploy] });
    await w.admin.call('chat.send', { sessionKey: key, message: 'secret-alpha', idempotencyKey: 'channel-privileged-reply', replyTo: { questionId: id } });
    expect((await w.question(id)).status).toBe('answered');
    const { runId } = await w.agent.call('run.start', { sessionKey: key });
    await w.agent.call('chat.inject', { runId, text: 'Noted', state: 'final' });
    // Posts go out in order: once the agent's later message is there, anything before it would be too.
    await posted('the later reply', (m) => m.text === 'Noted');
    expect(driver.messages().filter((m) => m.text.includes('secret-alpha') || m.text.includes(deploy.question))).toEqual([]);
  });

  it('[H6] a 429 retry_after and an outage delay the post but lose nothing; the question stays answerable meanwhile', async () => {
    const key = await w.sessionFromFirstMessage('deploy');
    driver.api.http.fail(driver.api.post, { status: 500, times: 2 });
    const id = await w.ask(key, [deploy]);
    await until(() => driver.api.http.callsOf(driver.api.post).length >= 2, 'the failed posts');
    expect((await w.question(id)).status).toBe('pending');
    const prompt = await posted('the retried post', (m) => m.buttons.includes('Staging'));
    driver.api.http.fail(driver.api.edit, { status: 429, retryAfterS: 1, times: 1 });
    await w.admin.call('question.resolve', { id, answers: { env: ['Staging'] } });
    await posted('the edit after retry_after', (m) => m.ref === prompt.ref && m.text.endsWith('Answered: Staging'));
    const edits = driver.api.http.callsOf(driver.api.edit);
    expect(edits).toHaveLength(2);
  });
});
