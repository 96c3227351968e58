import { afterEach, describe, expect, it } from 'vitest';
import { ENV, KEY, NOTIFY, startTui, type TuiHarness } from '../testing/tui-harness.tsx';

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const history = async () => (await h!.admin.call('chat.history', { sessionKey: h!.sessionKey })).messages;
const record = async (id: string) => (await h!.admin.call('question.get', { id })).question;

describe('the session screen', () => {
  it('[V1] status line with the session and `Connected`; typed messages are sent and shown with the replies', async () => {
    h = await startTui();
    expect(h.screen()).toContain('Deploys');
    expect(h.screen()).toContain('Connected');
    await h.type('hello there');
    await h.press(KEY.enter);
    await h.waitFor(/you\s+hello there/);
    const [sent] = await history();
    expect(sent).toMatchObject({ role: 'user', text: 'hello there', authorId: 'admin' });
    const { runId } = await h.agent.call('run.start', { sessionKey: h.sessionKey });
    await h.agent.call('chat.inject', { runId, text: 'Echo: hello there', state: 'final' });
    await h.waitFor(/agent\s+Echo: hello there/);
  });

  it('[E2][V1] a question in another session says where it waits and how to get there; the open session keeps its composer', async () => {
    h = await startTui();
    const { session } = await h.admin.call('sessions.create', { title: 'Releases' });
    const { runId } = await h.agent.call('run.start', { sessionKey: session.key });
    await h.agent.call('question.request', { sessionKey: session.key, runId, questions: [ENV, NOTIFY] as never });
    await h.waitFor('New question in Releases (Environment): /sessions to open it');
    expect(h.screen()).not.toContain('Question 1 of 2');
  });

  it('[V1] `Reconnecting…` while the connection is down, `Connected` once back', async () => {
    h = await startTui();
    h.client.dropConnection();
    await h.waitFor('Reconnecting…');
    await h.waitFor('Connected');
  });

  it('[V1] /new starts a session, /sessions lists them (↑/↓ + Enter opens one), /quit exits', async () => {
    h = await startTui();
    await h.type('/new');
    await h.press(KEY.enter);
    await h.waitFor('New session');
    const opened = h.store.getState().sessionKey;
    expect(opened).not.toBe(h.sessionKey);
    await h.type('/sessions');
    await h.press(KEY.enter);
    await h.waitFor('↑↓ move · Enter open · Esc back');
    expect(h.screen()).toMatch(/› New session \(open\)/);
    await h.press(KEY.down, KEY.enter);
    await h.waitFor('askdock · Deploys');
    expect(h.store.getState().sessionKey).toBe(h.sessionKey);
    await h.type('/quit');
    await h.press(KEY.enter);
    const tui = h;
    await expect.poll(() => tui.quits).toBe(1);
  });

  it('[V1] /sessions with more sessions than fit: the list scrolls with the cursor, and Enter opens the row it shows', async () => {
    h = await startTui();
    for (let i = 1; i <= 19; i++) await h.admin.call('sessions.create', { title: `Extra ${String(i).padStart(2, '0')}` });
    const tui = h;
    await expect.poll(() => tui.store.getState().sessions.length).toBe(20);
    await h.type('/sessions');
    await h.press(KEY.enter);
    await h.waitFor('↑↓ move · Enter open · Esc back');
    // The cursor starts on the open session, the oldest and the 20th row: the list shows it, with 5 above.
    expect(h.screen()).toMatch(/› Deploys \(open\)/);
    expect(h.screen()).toContain('↑ 5 more');
    // Down from the last row wraps to the first, the newest: the list scrolls back up to show it.
    await h.press(KEY.down);
    await h.waitFor(/› Extra 19/);
    expect(h.screen()).toContain('↓ 5 more');
    expect(h.screen()).not.toContain('Deploys (open)');
    await h.press(KEY.enter);
    await h.waitFor('askdock · Extra 19');
    expect(h.store.getState().sessionKey).not.toBe(h.sessionKey);
  });

  it('[V1] a line and its Enter in one burst (a paste, tmux send-keys) leave the composer empty for the next one', async () => {
    h = await startTui();
    await h.type('first line\r');
    await h.waitFor(/you\s+first line/);
    await h.type('second line\r');
    await h.waitFor(/you\s+second line/);
    expect((await history()).map((m) => m.text)).toEqual(['first line', 'second line']);
    await h.type('/quit\r');
    const tui = h;
    await expect.poll(() => tui.quits).toBe(1);
  });

  it('[V4] Esc returns to the composer with `1 question pending · /question to answer`; /question reopens it with its draft', async () => {
    h = await startTui();
    const { id } = await h.ask();
    await h.waitFor('Question 1 of 2');
    await h.press('2');
    await h.waitFor('Question 2 of 2');
    await h.press('3');
    await h.press(KEY.esc);
    await h.waitFor('1 question pending · /question to answer');
    expect(h.screen()).not.toContain('Question 2 of 2');
    expect((await record(id)).status).toBe('pending');
    await h.type('/question');
    await h.press(KEY.enter);
    await h.waitFor('Question 2 of 2');
    expect(h.screen()).toContain('[x] 3. Pager');
  });

  it('[V4][PT5] a plain reply in the composer answers the pending question by the plain-text rules, surface tui', async () => {
    h = await startTui();
    const { id } = await h.ask();
    await h.waitFor('Question 1 of 2');
    await h.press(KEY.esc);
    await h.waitFor('1 question pending');
    await h.type('1: production\x1b\r2: 1, 3');
    await h.press(KEY.enter);
    await h.waitFor('✓ Environment: Production · Notify: Email, Pager');
    const q = await record(id);
    expect(q).toMatchObject({ status: 'answered', answers: { env: ['Production'], notify: ['Email', 'Pager'] }, resolvedBy: { surface: 'tui' } });
    const [reply] = await history();
    expect(reply).toMatchObject({ text: '1: production\n2: 1, 3', replyTo: { questionId: id } });
    expect(q.replyMessageId).toBe(reply.id);
  });

  it('[V4] a plain reply answers a question asked outside a run (askdock ask, MCP) through question.resolve, surface tui', async () => {
    h = await startTui();
    const { id } = await h.agent.call('question.request', { sessionKey: h.sessionKey, questions: [ENV] as never });
    await h.waitFor('Where should it deploy?');
    await h.press(KEY.esc);
    await h.waitFor('1 question pending');
    await h.type('production');
    await h.press(KEY.enter);
    await h.waitFor('✓ Environment: Production');
    expect(h.screen()).not.toContain('Not sent');
    expect(await record(id)).toMatchObject({ status: 'answered', answers: { env: ['Production'] }, resolvedBy: { surface: 'tui' } });
  });

  it('[V4][PT3] a reply that fits no rule shows why and sends nothing', async () => {
    h = await startTui();
    const { id } = await h.ask();
    await h.waitFor('Question 1 of 2');
    await h.press(KEY.esc);
    await h.type('staging');
    await h.press(KEY.enter);
    await h.waitFor('Not sent: Environment is left out');
    expect(h.screen()).toMatch(/Notify\s+is\s+left\s+out/);
    expect(await history()).toEqual([]);
    expect((await record(id)).status).toBe('pending');
  });

  it('[V4][PT4] `skip` in the composer declines the prompt', async () => {
    h = await startTui();
    const { id } = await h.ask([ENV]);
    await h.waitFor('1. Staging (Recommended)');
    await h.press(KEY.esc);
    await h.type('skip');
    await h.press(KEY.enter);
    await h.waitFor('Skipped');
    expect(await record(id)).toMatchObject({ status: 'skipped', resolvedBy: { surface: 'tui' } });
  });

  it('[V6] after a reconnect the pending question comes back with its draft', async () => {
    h = await startTui();
    const { id } = await h.ask();
    await h.waitFor('Question 1 of 2');
    await h.press('2');
    await h.waitFor('Question 2 of 2');
    await h.press('2');
    await h.waitFor('[x] 2. Slack');
    h.client.dropConnection();
    await h.waitFor('Reconnecting…');
    await h.waitFor('Connected');
    expect(h.screen()).toContain('[x] 2. Slack');
    await h.press(KEY.enter);
    await h.waitFor('✓ Environment: Production · Notify: Slack');
    expect((await record(id)).answers).toEqual({ env: ['Production'], notify: ['Slack'] });
  });

  it('[V6] after a session switch the pending question comes back with its draft', async () => {
    h = await startTui();
    await h.ask();
    await h.waitFor('Question 1 of 2');
    await h.press('2', '1');
    await h.waitFor('[x] 1. Email');
    await h.press(KEY.esc);
    await h.type('/new');
    await h.press(KEY.enter);
    await h.waitFor('New session');
    expect(h.screen()).not.toContain('question pending');
    await h.type('/sessions');
    await h.press(KEY.enter);
    await h.waitFor('Enter open');
    await h.press(KEY.down, KEY.enter);
    await h.waitFor('Question 2 of 2');
    expect(h.screen()).toContain('[x] 1. Email');
  });
});
