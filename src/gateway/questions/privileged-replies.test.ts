import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../protocol/index.ts';
import { outcome as code, item, configWithQuestionsReader, gatewayPerTest, type Viewer } from '../../testing/gateway-harness.ts';
import type { TestClient } from '../../testing/ws-client.ts';

const gateway = gatewayPerTest();

const config = configWithQuestionsReader;
/** May not see a privileged question, so not its reply either (A3); agent2 may not even read the session (A6). */
const REFUSED: Viewer[] = ['guest', 'reader', 'writer', 'agent2'];
/** operator.admin, operator.read with operator.questions, and the asking agent (subscribed to the session, C6). */
const GRANTED: Viewer[] = ['admin', 'qreader', 'agent'];
const ALL: Viewer[] = [...REFUSED, ...GRANTED];
const SECRETS = ['secret-alpha', 'secret-beta', 'secret-gamma', 'secret-delta'];

/** The asking agent connects as client `asking-agent`. */
const connect = (who: Viewer, extra: Parameters<TestClient['connect']>[1] = {}): Promise<TestClient> =>
  gateway.t.connect(who, who === 'agent' ? { clientId: 'asking-agent', ...extra } : extra);

/**
 * A guest's session with a message before and after four privileged replies: a chat.send reply with answers, one without
 * (read back from its text), one made by question.resolve (Q9), and a PT5 reply to a privileged blocking question of a run.
 * Each viewer has a live connection, and a cursor taken before the replies.
 */
async function world() {
  await gateway.start({ config });
  const c = {} as Record<Viewer, TestClient>;
  for (const who of ALL) c[who] = await connect(who);
  const sessionKey = (await c.guest.call('sessions.create', { title: 'guest' })).session.key;
  await c.agent.call('agent.subscribe', { sessionKey });
  await c.admin.call('chat.send', { sessionKey, message: 'before', idempotencyKey: 'privileged-before' });
  const ask = (extra: object = {}) =>
    c.agent.call('question.request', { sessionKey, privileged: true, mode: 'async', questions: [item()], ...extra }).then((r) => r.id);
  const asked = [await ask(), await ask(), await ask()];
  await c.admin.waitEvent('question.requested', (e) => e.question.id === asked[2]);
  const cursors = {} as Record<Viewer, number>;
  for (const who of ALL) {
    const leaving = await connect(who);
    cursors[who] = leaving.hello!.snapshot.cursor;
    leaving.close();
  }
  const listedBefore = (await c.reader.call('sessions.list', {})).sessions[0];

  await c.admin.call('chat.send', {
    sessionKey,
    message: '> Environment\nsecret-alpha',
    idempotencyKey: 'privileged-reply-1',
    replyTo: { questionId: asked[0], answers: { env: ['secret-alpha'] } },
  });
  await c.admin.call('chat.send', { sessionKey, message: '> Environment\nsecret-beta', idempotencyKey: 'privileged-reply-2', replyTo: { questionId: asked[1] } });
  await c.qreader.call('question.resolve', { id: asked[2], answers: { env: ['secret-gamma'] } });
  const { runId } = await c.agent.call('run.start', { sessionKey });
  const blocking = await c.agent.call('question.request', { sessionKey, runId, privileged: true, questions: [item()] });
  await c.admin.call('chat.send', { sessionKey, message: 'secret-delta', idempotencyKey: 'privileged-reply-4', replyTo: { questionId: blocking.id } });
  const listedBetween = (await c.reader.call('sessions.list', {})).sessions[0];
  const last = await c.admin.call('chat.send', { sessionKey, message: 'after', idempotencyKey: 'privileged-after' });
  // Every viewer that reads the session has the last message, so whatever came before it has arrived too.
  for (const who of ALL.filter((w) => w !== 'agent2')) await c[who].waitEvent('chat', (e) => e.message.id === last.messageId);
  return { c, sessionKey, asked: [...asked, blocking.id], cursors, listedBefore, listedBetween };
}

const texts = (messages: ChatMessage[]) => messages.map((m) => m.text);
const leaks = (frames: string[]) => frames.filter((f) => SECRETS.some((s) => f.includes(s)));

describe('[A3] privileged replies', () => {
  it('[A3][Q9][PT5] every reply to a privileged question is saved, and the questions are answered as before', async () => {
    const { c, asked, sessionKey } = await world();
    for (const id of asked) expect((await c.agent.call('question.get', { id })).question.status, id).toBe('answered');
    const { messages } = await c.admin.call('chat.history', { sessionKey });
    expect(messages.map((m) => m.replyTo?.questionId ?? null)).toEqual([null, ...asked, null]);
    expect((await c.agent.call('question.get', { id: asked[0] })).question.replyMessageId).toBe(messages[1].id);
  });

  it('[A3][C3] chat.history shows them only to identities that may see the question; others read no gap', async () => {
    const { c, sessionKey } = await world();
    const all = ['before', '> Environment\nsecret-alpha', '> Environment\nsecret-beta', expect.stringContaining('secret-gamma'), 'secret-delta', 'after'];
    for (const who of GRANTED) expect(texts((await c[who].call('chat.history', { sessionKey })).messages), who).toEqual(all);
    expect(await code(c.agent2.call('chat.history', { sessionKey }))).toBe('SESSION_NOT_FOUND');
    for (const who of ['guest', 'reader', 'writer'] as const) {
      expect(await c[who].call('chat.history', { sessionKey }), who).toMatchObject({ hasMore: false });
      expect(texts((await c[who].call('chat.history', { sessionKey })).messages), who).toEqual(['before', 'after']);
      // Pages are filled from what it may read: the hidden replies take no place in a page and make no `hasMore`.
      const newest = await c[who].call('chat.history', { sessionKey, limit: 1 });
      expect({ texts: texts(newest.messages), hasMore: newest.hasMore }, who).toEqual({ texts: ['after'], hasMore: true });
      const older = await c[who].call('chat.history', { sessionKey, limit: 1, before: newest.messages[0].id });
      expect({ texts: texts(older.messages), hasMore: older.hasMore }, who).toEqual({ texts: ['before'], hasMore: false });
      const two = await c[who].call('chat.history', { sessionKey, limit: 2 });
      expect({ texts: texts(two.messages), hasMore: two.hasMore }, who).toEqual({ texts: ['before', 'after'], hasMore: false });
    }
  });

  it('[A3][A4] live events: no chat, session.updated or question event of them reaches those who may not see the question', async () => {
    const { c, sessionKey } = await world();
    for (const who of REFUSED) {
      expect(leaks(c[who].rawFrames), who).toEqual([]);
      expect(c[who].seqEvents().filter((e) => e.event.startsWith('question.')), who).toEqual([]);
    }
    const { messages } = await c.admin.call('chat.history', { sessionKey });
    for (const who of ['guest', 'reader', 'writer'] as const) {
      expect(c[who].eventsNamed('chat').map((e) => e.message.text), who).toEqual(['before', 'after']);
      // Only its creation and the two ordinary messages moved the session: the replies changed nothing it can see.
      const moved = c[who].eventsNamed('session.updated').map((e) => e.session.lastMessageAtMs);
      expect(moved, who).toEqual([null, messages[0].createdAtMs, messages.at(-1)!.createdAtMs]);
    }
    for (const who of GRANTED) {
      const got = c[who].eventsNamed('chat').map((e) => e.message.text);
      for (const secret of SECRETS) expect(got.some((text) => text.includes(secret)), `${who} ${secret}`).toBe(true);
    }
  });

  it('[A3][C1][P5] sessions.list and the hello snapshot show no lastMessageAtMs or count that betrays them', async () => {
    const { c, listedBefore, listedBetween } = await world();
    // The run started in between is no secret (U18 presence turns `working`); the rest must not move.
    expect({ ...listedBetween, agentPresence: undefined }).toEqual({ ...listedBefore, agentPresence: undefined });
    for (const who of ['guest', 'reader', 'writer'] as const) {
      const fresh = await connect(who);
      const [session] = fresh.hello!.snapshot.sessions;
      expect(session.pendingQuestions, who).toBe(0);
      expect(fresh.hello!.snapshot.pendingQuestions, who).toEqual([]);
      expect(leaks(fresh.rawFrames), who).toEqual([]);
      expect((await c[who].call('sessions.list', {})).sessions, who).toEqual([session]);
    }
  });

  it('[A3][R2] resume from a cursor taken before the replies replays them only to those who may see the question', async () => {
    const { cursors } = await world();
    for (const who of ALL) {
      const back = await connect(who, { resume: { cursor: cursors[who] } });
      expect(back.hello!.resumed, who).toBe(true);
      if (who !== 'agent2') await back.waitEvent('chat', (e) => e.message.text === 'after');
      const replayed = back.eventsNamed('chat').map((e) => e.message.text);
      if (REFUSED.includes(who)) {
        expect(replayed, who).toEqual(who === 'agent2' ? [] : ['after']);
        expect(leaks(back.rawFrames), who).toEqual([]);
      } else {
        expect(replayed, who).toHaveLength(5);
        for (const secret of SECRETS) expect(replayed.some((text) => text.includes(secret)), `${who} ${secret}`).toBe(true);
      }
    }
  });

  it('[A3][U15] a privileged reply as the first message of an untitled session does not title it', async () => {
    await gateway.start({ config });
    const admin = await connect('admin');
    const agent = await connect('agent');
    const sessionKey = (await admin.call('sessions.create', {})).session.key;
    const { id } = await agent.call('question.request', { sessionKey, privileged: true, mode: 'async', questions: [item()] });
    await admin.call('chat.send', { sessionKey, message: 'secret-alpha', idempotencyKey: 'untitled-reply', replyTo: { questionId: id } });
    const reader = await connect('reader');
    expect(reader.hello!.snapshot.sessions[0]).toMatchObject({ title: 'New session', lastMessageAtMs: null });
    await admin.call('chat.send', { sessionKey, message: 'Deploy the site', idempotencyKey: 'untitled-first' });
    expect((await reader.call('sessions.list', {})).sessions[0].title).toBe('Deploy the site');
  });
});
