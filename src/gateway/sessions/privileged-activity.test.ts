import { describe, expect, it } from 'vitest';
import type { Session } from '../../protocol/index.ts';
import { item, configWithQuestionsReader, connectEach, gatewayPerTest, type Viewer } from '../../testing/gateway-harness.ts';
import type { TestClient } from '../../testing/ws-client.ts';

const gateway = gatewayPerTest();

const config = configWithQuestionsReader;
/** May read the privileged reply (A3): operator.admin, operator.questions, and the asking agent. */
const GRANTED: Viewer[] = ['admin', 'qreader', 'agent'];
/** Read the session, but may not see the privileged question, so not its reply either. */
const REFUSED: Viewer[] = ['guest', 'reader', 'writer'];
const ALL = [...GRANTED, ...REFUSED];
const WAIT_MS = 20_000;

const connect = (who: Viewer): Promise<TestClient> => gateway.t.connect(who);

/**
 * Two sessions of the guest: `older` gets a message, then `newer` one, then `older` the reply to a privileged question
 * of its agent. Each viewer is connected throughout; the agent is subscribed to both sessions (C6).
 */
async function world(memory: boolean) {
  const c = await connectEach(await gateway.start({ config, memory }), ALL);
  const older = (await c.guest.call('sessions.create', { title: 'older' })).session.key;
  const newer = (await c.guest.call('sessions.create', { title: 'newer' })).session.key;
  for (const sessionKey of [older, newer]) await c.agent.call('agent.subscribe', { sessionKey });
  const { id } = await c.agent.call('question.request', { sessionKey: older, privileged: true, mode: 'async', questions: [item()] });
  const send = (sessionKey: string, message: string, extra: object = {}) =>
    c.admin.call('chat.send', { sessionKey, message, idempotencyKey: `key-${message}`, ...extra });
  await send(older, 'plain-older');
  await send(newer, 'plain-newer');
  const reply = await send(older, 'privileged-answer', { replyTo: { questionId: id } });
  const history = (await c.admin.call('chat.history', { sessionKey: older })).messages;
  const at = (text: string) => history.find((m) => m.text === text)!.createdAtMs;
  const newerAt = (await c.admin.call('chat.history', { sessionKey: newer })).messages[0].createdAtMs;
  // The gateway's clock never goes back, so the reply is the newest message of both sessions.
  expect(at('privileged-answer')).toBeGreaterThan(newerAt);
  expect(newerAt).toBeGreaterThan(at('plain-older'));
  return { c, older, newer, replyId: reply.messageId, plainAt: at('plain-older'), replyAt: at('privileged-answer'), newerAt };
}

const lastOf = (sessions: Session[], key: string) => sessions.find((s) => s.key === key)?.lastMessageAtMs;

describe('[A3][C1] a privileged reply moves lastMessageAtMs only for those who may read it', () => {
  it.each([false, true])('sessions.list and the hello snapshot: its time and order for them, the older ones for the others (memory store: %s)', async (memory) => {
    const { c, older, newer, plainAt, replyAt, newerAt } = await world(memory);
    for (const who of ALL) {
      const listed = (await c[who].call('sessions.list', {})).sessions;
      const snapshot = (await connect(who)).hello!.snapshot.sessions;
      for (const [what, sessions] of [['list', listed], ['snapshot', snapshot]] as const) {
        const granted = GRANTED.includes(who);
        expect(lastOf(sessions, older), `${who} ${what}`).toBe(granted ? replyAt : plainAt);
        expect(lastOf(sessions, newer), `${who} ${what}`).toBe(newerAt);
        // C1: newest activity first, so the reply brings its session to the top only where it may be read.
        expect(sessions.map((s) => s.key), `${who} ${what}`).toEqual(granted ? [older, newer] : [newer, older]);
      }
    }
  });

  it.each([false, true])('session.updated: the reply moves the session for them and reaches no one else; later updates keep it (memory store: %s)', async (memory) => {
    const { c, older, plainAt, replyAt, replyId } = await world(memory);
    // A change every reader hears of, after the reply: once it arrived, whatever the reply sent has arrived too.
    const renamed = await c.admin.call('sessions.update', { sessionKey: older, title: 'renamed' });
    expect(renamed.session.lastMessageAtMs).toBe(replyAt);
    for (const who of ALL) await c[who].waitEvent('session.updated', (e) => e.session.title === 'renamed', WAIT_MS);
    for (const who of GRANTED) {
      expect(c[who].eventsNamed('chat').some((e) => e.message.id === replyId), who).toBe(true);
      const moves = c[who].eventsNamed('session.updated').filter((e) => e.session.key === older).map((e) => e.session.lastMessageAtMs);
      // Before any message (its creation, its question's count) none; then the plain message, the reply, the question
      // the reply answered (its count) and the rename: those after the reply keep its time.
      expect(moves.filter((at) => at !== null), who).toEqual([plainAt, replyAt, replyAt, replyAt]);
    }
    for (const who of REFUSED) {
      expect(c[who].eventsNamed('chat').some((e) => e.message.id === replyId), who).toBe(false);
      const moves = c[who].eventsNamed('session.updated').filter((e) => e.session.key === older).map((e) => e.session.lastMessageAtMs);
      // Created, the plain message, the rename: nothing in between, nothing with the reply's time.
      expect(moves, who).toEqual([null, plainAt, plainAt]);
    }
  });
});
