import type { Answers } from '../../protocol/index.ts';
import { supersedeRuns } from '../runs/run-authority.ts';
import { replySurface } from '../questions/surface.ts';
import { canWriteSession, forbidden } from '../sessions/visibility.ts';
import { titleFromMessage, UNTITLED } from './sessions.ts';
import type { HandlerTable } from './types.ts';

type ChatMethods = 'chat.send' | 'chat.history' | 'chat.abort' | 'run.start' | 'chat.inject' | 'run.end' | 'agent.subscribe';

/** C2..C6: messages, history, agent runs and agent subscriptions. */
export const chatHandlers: Pick<HandlerTable, ChatMethods> = {
  'chat.send': async (p, { core, conn }) => {
    const { identity } = conn;
    // C2: a repeated key returns the first result and never makes a second message, across restarts too.
    const first = await core.store.getIdempotent(identity.id, p.idempotencyKey);
    if (first) return { ...first, deduped: true };
    const session = await core.readableSession(identity, p.sessionKey);
    if (!canWriteSession(identity, session))
      throw forbidden(`chat.send in session "${session.key}"`, ['operator.admin', 'operator.write'], identity);
    const sent = await core.hub.commit(async (tx) => {
      // The session first (on a shared database, reading it in the writing transaction locks it), then the key again:
      // another gateway may have just taken it for this session (D2).
      const before = await core.store.getSession(session.key);
      const again = await core.store.getIdempotent(identity.id, p.idempotencyKey);
      if (again) return { ...again, deduped: true };
      const reply = p.replyTo ? await core.questions.checkReply(identity, session.key, p.replyTo, p.message) : undefined;
      // A3: the reply to a privileged question is privileged too: it never titles the session, and moves its lastMessageAtMs
      // only for those who may read it (core.appendMessage).
      const privileged = reply?.q.privileged === true;
      // U15: an untitled session takes its title from its first message.
      if (!privileged && before && before.lastMessageAtMs === null && before.title === UNTITLED)
        await core.store.renameSession(session.key, titleFromMessage(p.message));
      const answers: Answers | undefined = p.replyTo?.answers ? reply?.answers : undefined;
      const message = await core.appendMessage(tx, {
        sessionKey: session.key,
        role: 'user',
        text: p.message,
        authorId: identity.id,
        ...(p.replyTo ? { replyTo: { questionId: p.replyTo.questionId, ...(answers ? { answers } : {}) } } : {}),
        ...(privileged ? { privilegedReplyOf: reply.q.askedBy } : {}),
        state: 'final',
        // A plain reply that ends its question: the outcome's session.updated, read after this message, tells its
        // readers (a privileged one keeps its own, to its question's readers, as before).
        ...(reply && !privileged ? { sessionUpdatedFollows: true as const } : {}),
      });
      await core.store.putIdempotent(identity.id, p.idempotencyKey, { messageId: message.id, seq: message.seq }, message.createdAtMs);
      // RU2: a message that is not the reply to a run's blocking question ends that run's turn.
      await supersedeRuns(core, tx, session.key, p.replyTo?.questionId);
      // Q9, PT5: the question turns answered (or skipped) in the same transaction that saves its reply.
      const ended = reply !== undefined && (await core.questions.recordReply(tx, identity, reply, message.id, replySurface(conn, reply.q.mode)));
      if (reply && !privileged && !ended) await core.emitMovedBy(tx, message, undefined);
      return { messageId: message.id, seq: message.seq, deduped: false };
    }, session.key);
    // On a shared database the message is numbered as its transaction commits.
    return { ...sent, seq: await core.hub.settledSeq(sent.seq) };
  },

  'chat.history': async (p, { core, conn }) => {
    await core.readableSession(conn.identity, p.sessionKey);
    return await core.historyFor(conn.identity, p.sessionKey, p.limit ?? 100, p.before);
  },

  'chat.abort': async (p, { core, conn }) => await core.runs.abort(conn.identity, p),
  'run.start': async (p, { core, conn }) => core.runs.start(conn.identity, p),
  'chat.inject': async (p, { core, conn }) => await core.runs.inject(conn.identity, p),
  'run.end': async (p, { core, conn }) => core.runs.end(conn.identity, p),

  /** C6: this agent client now gets the `chat` events (and runs) of the session, or of every session. */
  'agent.subscribe': async (p, { core, conn }) => {
    if (p.sessionKey !== undefined) (await core.readableSession(conn.identity, p.sessionKey));
    await core.subscriptions.add(conn.identity.id, conn.clientId, p.sessionKey);
    return { subscribed: true };
  },
};
