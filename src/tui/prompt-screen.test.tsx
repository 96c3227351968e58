import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock.ts';
import { ENV, KEY, NOTIFY, startTui, type TuiHarness } from '../testing/tui-harness.tsx';
import { formatTimeLeft } from './components/time-left.tsx';

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const record = async (id: string) => (await h!.admin.call('question.get', { id })).question;

describe('the question prompt on screen', () => {
  it('[V1][V2] a long transcript gives way at the top: the prompt keeps every line on a 24-row screen', async () => {
    h = await startTui();
    for (let i = 1; i <= 30; i++) await h.admin.call('chat.send', { sessionKey: h.sessionKey, message: `m${i}`, idempotencyKey: `long-transcript-${i}` });
    await h.waitFor('m30');
    await h.ask();
    const screen = await h.waitFor('Question 1 of 2');
    for (const line of ['Environment', 'Where should it deploy?', '1. Staging (Recommended)', 'Safe to try out; nobody depends on it.', '2. Production', 'Other…', 'Skip'])
      expect(screen, line).toContain(line);
    expect(screen).toMatch(/\bm30\b/);
    expect(screen).not.toMatch(/\bm1\b/);
    await h.press(KEY.esc);
    const composer = await h.waitFor('1 question pending · /question to answer');
    expect(composer).toContain('a reply answers the question');
  });

  it('[V2][V1] a question that arrives while /sessions is open opens its prompt once the list is left with Esc', async () => {
    h = await startTui();
    await h.type('/sessions');
    await h.press(KEY.enter);
    await h.waitFor('Deploys');
    const { id } = await h.ask();
    // It has reached this terminal (while the list is still open) before the list is left.
    const tui = h;
    await expect.poll(() => tui.store.getState().questions[id]?.status).toBe('pending');
    expect(h.screen()).toContain('Enter open · Esc back');
    await h.press(KEY.esc);
    await h.waitFor('Question 1 of 2');
  });

  it('[V5] Enter pressed twice on the last step sends one answer, and the notice is this terminal\'s ✓', async () => {
    h = await startTui();
    const { id } = await h.ask([ENV]);
    await h.waitFor('1. Staging (Recommended)');
    await h.type('1\r');
    await h.waitFor('✓ Environment: Staging');
    expect(h.screen()).not.toContain('Answered elsewhere');
    expect(h.screen()).not.toContain('Not answered');
    expect((await record(id)).resolvedBy).toMatchObject({ identity: 'admin', surface: 'tui' });
  });

  it('[V2] a burst that opens Other… and types on (a pty sends it in one chunk) answers with the typed text', async () => {
    h = await startTui();
    const { id } = await h.ask([ENV]);
    await h.waitFor('1. Staging (Recommended)');
    await h.press(KEY.down, KEY.down);
    await h.type('\rhello there\r');
    await h.waitFor('✓ Environment: hello there');
    expect((await record(id)).answers).toEqual({ env: ['hello there'] });
  });

  it('[V2] a Backspace or Ctrl+U inside such a burst erases in order, as in the field', async () => {
    h = await startTui();
    const { id } = await h.ask([ENV]);
    await h.waitFor('1. Staging (Recommended)');
    await h.press(KEY.down, KEY.down);
    await h.type('\rtypo\u0015hel\u007flo\r');
    await h.waitFor('✓ Environment: helo');
    expect((await record(id)).answers).toEqual({ env: ['helo'] });
  });

  it('[V2] a burst that crosses to the next step and types into its Other appends there, in order', async () => {
    h = await startTui();
    const { id } = await h.ask();
    await h.waitFor('Question 1 of 2');
    // One chunk: pick Staging (on to Notify), down to Other…, open it, type, send.
    await h.type(`1${KEY.down}${KEY.down}${KEY.down}\rops team\r`);
    await h.waitFor('✓ Environment: Staging');
    expect((await record(id)).answers).toEqual({ env: ['Staging (Recommended)'], notify: ['ops team'] });
  });

  it('[X2] a detail shows as indented lines under the question, cut with `… N more lines`, escape sequences made harmless', async () => {
    h = await startTui();
    const detail = ['$ rm -rf build', '\tkeep \u001b[2Jthis', ...Array.from({ length: 198 }, (_, i) => `+added ${i + 3}`)].join('\n');
    await h.ask([{ ...ENV, header: 'Bash', question: 'Allow Bash rm -rf build?', options: [{ label: 'Allow' }, { label: 'Deny' }], detail }]);
    const screen = await h.waitFor('… 190 more lines');
    expect(screen).toMatch(/^│\s+Allow Bash rm -rf build\?\s+│$/m);
    expect(screen).toMatch(/^│ {3}\$ rm -rf build\s+│$/m);
    expect(screen).toContain('      keep \uFFFD[2Jthis');
    expect(screen).toContain('+added 10');
    expect(screen).not.toContain('+added 11');
    expect(screen).toContain('1. Allow');
  });

  it('[V2] opens in place of the composer: header, Question 1 of 2, numbered options with descriptions, Other…, Skip', async () => {
    h = await startTui();
    await h.ask();
    const screen = await h.waitFor('Question 1 of 2');
    expect(screen).toContain('Environment');
    expect(screen).toContain('Where should it deploy?');
    expect(screen).toContain('1. Staging (Recommended)');
    expect(screen).toContain('Safe to try out; nobody depends on it.');
    expect(screen).toContain('2. Production');
    expect(screen).toContain('Other…');
    expect(screen).toContain('Skip');
    expect(screen).not.toContain('Message ·');
  });

  it('[V2] number keys take an option at once; Space and numbers toggle [x] on multi-select; Enter confirms; surface tui', async () => {
    h = await startTui();
    const { id } = await h.ask();
    await h.waitFor('Question 1 of 2');
    await h.press('2');
    await h.waitFor('Question 2 of 2');
    await h.press('1');
    await h.waitFor('[x] 1. Email');
    await h.press(KEY.down, KEY.down, ' ');
    await h.waitFor('[x] 3. Pager');
    await h.press('1');
    await h.waitFor('[ ] 1. Email');
    await h.press('2', KEY.enter);
    await h.waitFor('✓ Environment: Production · Notify: Slack, Pager');
    const q = await record(id);
    expect(q).toMatchObject({ status: 'answered', answers: { env: ['Production'], notify: ['Slack', 'Pager'] } });
    expect(q.resolvedBy).toMatchObject({ identity: 'admin', surface: 'tui' });
    expect(h.screen()).toContain('Message ·');
  });

  it('[V2] ↑/↓ move the highlight and Enter takes it; ← goes back a question', async () => {
    h = await startTui();
    const { id } = await h.ask();
    await h.waitFor('Question 1 of 2');
    await h.press(KEY.down, KEY.down, KEY.up, KEY.enter);
    await h.waitFor('Question 2 of 2');
    await h.press(KEY.left);
    await h.waitFor('Question 1 of 2');
    await h.press(KEY.enter, KEY.enter);
    await h.waitFor('✓ Environment: Production · Notify: Email');
    expect((await record(id)).answers).toEqual({ env: ['Production'], notify: ['Email'] });
  });

  it('[V2] Other… opens a text field: Esc goes back to the options, Enter sends its text as the answer', async () => {
    h = await startTui();
    const { id } = await h.ask([ENV]);
    await h.waitFor('1. Staging (Recommended)');
    await h.press(KEY.down, KEY.down, KEY.enter);
    await h.waitFor('Enter sends');
    await h.type('the QA box');
    await h.press(KEY.esc);
    await h.waitForNo('Enter sends');
    expect(h.screen()).toContain('Other… the QA box');
    await h.press(KEY.enter);
    await h.waitFor('the QA box');
    await h.type(', please');
    await h.press(KEY.enter);
    await h.waitFor('✓ Environment: the QA box, please');
    expect((await record(id)).answers).toEqual({ env: ['the QA box, please'] });
  });

  it('[V2][V5] Skip declines the whole prompt; the transcript keeps `Skipped`', async () => {
    h = await startTui();
    const { id } = await h.ask();
    await h.waitFor('Question 1 of 2');
    await h.press(KEY.up, KEY.enter);
    await h.waitFor('Skipped');
    expect(await record(id)).toMatchObject({ status: 'skipped', resolvedBy: { surface: 'tui' } });
    // What was asked stays beside the outcome, as in the Control UI's summary.
    expect(h.screen()).toContain('Skipped  — Environment: Where should it deploy? · Notify: Who should I notify?');
  });

  it('[V5] an answered notice keeps its exact text, with the questions asked beside it', async () => {
    h = await startTui();
    await h.ask();
    await h.waitFor('Question 1 of 2');
    await h.press('2');
    await h.waitFor('Question 2 of 2');
    await h.press('1', KEY.enter);
    await h.waitFor('✓ Environment: Production · Notify: Email  — Where should it deploy? · Who should I notify?');
  });

  it('[V3] shows the time remaining as m:ss left', async () => {
    expect(formatTimeLeft(872_000)).toBe('14:32 left');
    expect(formatTimeLeft(59_400)).toBe('1:00 left');
    expect(formatTimeLeft(-5)).toBe('0:00 left');
    h = await startTui();
    await h.ask([ENV], { timeoutMs: 600_000 });
    // Within a minute of ten: a busy machine may take seconds to show it.
    await h.waitFor(/(10:00|9:\d\d) left/);
    const before = /(\d+:\d\d) left/.exec(h.screen())![1];
    await h.waitFor(new RegExp(`(?!${before})\\d+:\\d\\d left`));
    await h.waitForNo(`${before} left`);
  });

  it('[V3][V5] a prompt that expires closes at once and leaves `Expired`', async () => {
    const clock = new FakeClock();
    h = await startTui({ clock });
    await h.ask([ENV], { timeoutMs: 30_000 });
    await h.waitFor('1. Staging (Recommended)');
    clock.advance(31_000);
    await h.waitFor('Expired');
    expect(h.screen()).not.toContain('1. Staging (Recommended)');
  });

  it('[V3][V5] cancelled by the asker, or answered elsewhere: the prompt closes at once with `Cancelled` / `Answered elsewhere`', async () => {
    h = await startTui();
    const a = await h.ask([ENV]);
    await h.waitFor('1. Staging (Recommended)');
    await h.agent.call('question.resolve', { id: a.id, cancel: true, reason: 'changed my mind' });
    await h.waitFor('Cancelled');
    expect(h.screen()).not.toContain('1. Staging (Recommended)');
    const b = await h.ask([ENV]);
    await h.waitFor('1. Staging (Recommended)');
    await h.admin.call('question.resolve', { id: b.id, answers: { env: ['Production'] } });
    await h.waitFor('Answered elsewhere');
    expect(h.screen()).not.toContain('1. Staging (Recommended)');
  });

  it('[V5] after answering, the transcript keeps `✓ Environment: Staging · Notify: Email, Slack`', async () => {
    h = await startTui();
    await h.ask();
    await h.waitFor('Question 1 of 2');
    await h.press('1', '1', '2', KEY.enter);
    await h.waitFor('✓ Environment: Staging · Notify: Email, Slack');
  });

  it('[W3] Other text that looks like a credential is sent only after the person confirms', async () => {
    h = await startTui();
    const { id } = await h.ask([ENV]);
    await h.waitFor('1. Staging (Recommended)');
    await h.press(KEY.down, KEY.down, KEY.enter);
    await h.waitFor('Enter sends');
    await h.type('ghp_0123456789abcdefghijABCDEFGHIJ012345');
    await h.press(KEY.enter);
    await h.waitFor('Send it anyway?');
    expect((await record(id)).status).toBe('pending');
    await h.press('n');
    await h.waitForNo('Send it anyway?');
    await h.press(KEY.enter);
    await h.waitFor('Send it anyway?');
    await h.press('y');
    await h.waitForNo('1. Staging (Recommended)');
    expect((await record(id)).status).toBe('answered');
  });

  it('[V6] `[` and `]` switch between pending requests (‹ 1/2 ›), drafts kept', async () => {
    h = await startTui();
    const lunch = { ...NOTIFY, id: 'lunch', header: 'Lunch', question: 'Lunch?', multiSelect: undefined, options: [{ label: 'Pizza' }, { label: 'Sushi' }] };
    const blocking = await h.ask();
    await h.waitFor('Question 1 of 2');
    const asyncQ = await h.agent.call('question.request', { sessionKey: h.sessionKey, mode: 'async', questions: [lunch] as never });
    await h.waitFor('‹ 1/2 ›');
    await h.press('2');
    await h.waitFor('Question 2 of 2');
    await h.press('3');
    await h.waitFor('[x] 3. Pager');
    await h.press(']');
    await h.waitFor('‹ 2/2 ›');
    expect(h.screen()).toContain('Lunch?');
    await h.press('[');
    await h.waitFor('‹ 1/2 ›');
    expect(h.screen()).toContain('[x] 3. Pager');
    expect(h.screen()).toContain('Question 2 of 2');
    await h.press(KEY.enter);
    await h.waitFor('Lunch?');
    await h.press('2');
    await h.waitFor('✓ Lunch: Sushi');
    expect((await record(blocking.id)).answers).toEqual({ env: ['Production'], notify: ['Pager'] });
    expect(await record(asyncQ.id)).toMatchObject({ status: 'answered', answers: { lunch: ['Sushi'] }, resolvedBy: { surface: 'tui' } });
  });
});
