import { expect, it } from 'vitest';
import { deploy } from '../../testing/channels/scenario-items.ts';
import { until } from '../../testing/channels/fake-http.ts';
import { describeOnEveryPlatform } from '../../testing/channels/every-platform.ts';

const ESC = '\u001b';
const BEL = '\u0007';
/** What a chat client must never be handed: controls (C0 but tab and line feed, DEL, C1), bidi formatting, the Unicode separators. */
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describeOnEveryPlatform('text bound for the chat', (name, world) => {
  const posted = world.posted;

  it('[H3][H5] a question, its options, a reply and the outcome reach the chat with no control or bidi character in them', async () => {
    const { driver, w } = world;
    const key = await w.sessionFromFirstMessage('deploy please');
    const id = await w.ask(key, [
      { ...deploy, question: `Deploy ${ESC}[31minvoice\u202Efdp.exe?`, options: [{ label: `Stag${BEL}ing`, description: `safe\u2028ish` }, { label: 'Production' }] },
    ]);
    const prompt = await posted('the question', (m) => m.text.includes('invoice'));
    expect(prompt.text).not.toMatch(HIDDEN);
    expect(prompt.text).toContain('Deploy \uFFFD[31minvoice\\u202Efdp.exe?');
    expect(prompt.text).toContain('safe\\u2028ish');
    expect(prompt.buttons[0]).toBe('Stag\uFFFDing');
    for (const label of prompt.buttons) expect(label).not.toMatch(HIDDEN);

    if (name === 'telegram') {
      await driver.press(driver.ids.alice, prompt, 'Other…');
      await posted('the Force Reply prompt', (m) => !!m.forceReply);
    }
    await driver.userSays(driver.ids.alice, `Canary ${ESC}]0;owned${BEL} first`);
    await until(async () => (await w.question(id)).status === 'answered', 'the answer');
    const outcome = await posted('the outcome', (m) => m.ref === prompt.ref && m.buttons.length === 0);
    expect(outcome.text).not.toMatch(HIDDEN);
    expect(outcome.text).toContain('Answered: Canary \uFFFD]0;owned\uFFFD first');
    for (const m of driver.messages()) expect(m.text).not.toMatch(HIDDEN);
  });

  it('[H2] an agent\'s reply reaches the chat with its escape sequences and bidi overrides shown, not acted on', async () => {
    const { driver, w } = world;
    const key = await w.sessionFromFirstMessage('hello');
    const { runId } = await w.agent.call('run.start', { sessionKey: key });
    await w.agent.call('chat.inject', { runId, text: `Done ${ESC}[2J\u2066see\u2069\r\nnext`, state: 'final' });
    const reply = await posted('the reply', (m) => m.text.startsWith('Done'));
    expect(reply.text).toBe('Done \uFFFD[2J\\u2066see\\u2069\nnext');
  });

  it('[H3] a label that its shown escapes lengthen past 64 characters is cut on its button, and the button still answers', async () => {
    const { driver, w } = world;
    const key = await w.sessionFromFirstMessage('deploy please');
    const label = `${'\u202E'.repeat(12)}${'s'.repeat(40)}`;
    const id = await w.ask(key, [{ ...deploy, options: [{ label }, { label: 'Production' }] }]);
    const prompt = await posted('the question', (m) => m.buttons.includes('Production'));
    const shown = prompt.buttons[0];
    expect(Array.from(shown)).toHaveLength(64);
    expect(shown.startsWith('\\u202E\\u202E')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
    await driver.press(driver.ids.alice, prompt, shown);
    await until(async () => (await w.question(id)).status === 'answered', 'the answer');
    expect((await w.question(id)).answers).toEqual({ env: [label] });
  });

  it('[H4] what a press is told names the option as the chat shows it', async () => {
    const { driver, w } = world;
    const key = await w.sessionFromFirstMessage('deploy please');
    const id = await w.ask(key, [{ ...deploy, options: [{ label: `Stag${BEL}ing` }, { label: 'Production' }] }]);
    const prompt = await posted('the question', (m) => m.buttons.includes('Stag\uFFFDing'));
    await driver.press(driver.ids.alice, prompt, 'Stag\uFFFDing');
    await until(async () => (await w.question(id)).status === 'answered', 'the answer');
    // Telegram tells the presser (its callback answer); the others say nothing to a press that went through.
    if (name === 'telegram') await until(() => driver.notices().includes('Answered: Stag\uFFFDing'), 'the notice');
    for (const notice of driver.notices()) expect(notice).not.toMatch(HIDDEN);
  });
});
