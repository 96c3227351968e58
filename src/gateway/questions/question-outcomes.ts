import { formatAsyncAnswerText } from '../../answers/async-reply.ts';
import type { Answers, Session } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { Core } from '../core.ts';
import type { Tx } from '../hub/hub.ts';
import { supersedeRuns } from '../runs/run-authority.ts';
import type { StoredQuestion } from '../store/types.ts';
import { questionAudience } from './question-records.ts';
import { recordDecided } from '../audit/question-entries.ts';
import type { SessionBefore } from './question-request.ts';
import type { AnswerWaiters } from './question-waiters.ts';

export type Outcome = Pick<StoredQuestion, 'status'> & Partial<Pick<StoredQuestion, 'answers' | 'resolvedBy' | 'reason' | 'resolutionId' | 'replyMessageId'>>;

/** Q5, Q7, Q9, Q10: a question's outcome written inside a commit (record, events, session count); its waiters woken after. */
export class QuestionOutcomes {
  constructor(
    private readonly core: Core,
    private readonly waiters: AnswerWaiters,
  ) {}

  /**
   * Q9: an async question of a session is answered by an ordinary message in it, whatever surface answered (a link
   * page, a script resolving it): the same Q9 text and `replyTo` a chat.send from the dock carries, saved in the
   * transaction that answers the record, so the agent reads the answer in its conversation. Must come before any
   * other event of the transaction (the message's seq is its event's).
   */
  async asyncReplyIn(tx: Tx, identity: Identity, q: StoredQuestion, answers: Answers): Promise<string | undefined> {
    if (q.mode !== 'async' || q.sessionKey === undefined) return undefined;
    const text = formatAsyncAnswerText(q.questions, answers);
    const message = await this.core.appendMessage(tx, {
      sessionKey: q.sessionKey,
      role: 'user',
      text,
      authorId: identity.id,
      replyTo: { questionId: q.id, answers },
      // A3: the answer of a privileged question is privileged too.
      ...(q.privileged ? { privilegedReplyOf: q.askedBy } : {}),
      state: 'final',
      // finishIn follows in this unit and tells the same readers of the session, read after this message.
      sessionUpdatedFollows: true,
    });
    await supersedeRuns(this.core, tx, q.sessionKey, q.id);
    return message.id;
  }

  /** Ends a pending question inside a commit: store, Q8 event, session count, then wakes the waiters after commit. */
  async finishIn(tx: Tx, q: StoredQuestion, outcome: Outcome, before?: SessionBefore, movedByReply = false): Promise<StoredQuestion> {
    const done: StoredQuestion = { ...q, ...outcome };
    // L1/L4: the decision's entry and receipt, in this transaction.
    const receipt = await recordDecided(this.core.audit, done, this.core.clock.now());
    if (receipt !== undefined) done.receipt = receipt;
    const key = done.sessionKey;
    let session: Session | undefined;
    let pending: StoredQuestion[] | undefined;
    if (before) {
      // Read (and locked) with the question in this unit, nothing changed since but this question: its count less it
      // (when it counted, Q10), it out of the pending ones. The update then needs no answer (pg.writeOne).
      const counted = q.status === 'pending' && q.retiredAtMs === undefined;
      pending = before.pending?.filter((other) => other.id !== q.id);
      const count = pending ? openCount(pending) : (before.session?.pendingQuestions ?? 0) - (counted ? 1 : 0);
      session = before.session && { ...before.session, pendingQuestions: count };
      await this.core.store.updateQuestion(done);
    } else {
      // The update and the session with its new count (and pending questions), sent together (core.emitSessionAs).
      [, session, pending] = await Promise.all([
        this.core.store.updateQuestion(done),
        key !== undefined ? this.core.getSession(key) : undefined,
        this.core.pendingWith(key),
      ]);
    }
    await tx.emit(
      'question.resolved',
      {
        id: done.id,
        ...(done.sessionKey !== undefined ? { sessionKey: done.sessionKey } : {}),
        status: done.status,
        ...(done.answers ? { answers: done.answers } : {}),
        ...(done.resolvedBy ? { resolvedBy: done.resolvedBy } : {}),
        ...(done.reason !== undefined ? { reason: done.reason } : {}),
        ...(done.replyMessageId !== undefined ? { replyMessageId: done.replyMessageId } : {}),
        ...(done.receipt !== undefined ? { receipt: done.receipt } : {}),
      },
      questionAudience(done),
    );
    // A plain reply of asyncReplyIn moved the session for every reader (its last message) and sent no session.updated
    // of its own: this one goes to all of them, each told the count it may see (session-views.ts); a privileged
    // reply's readers are the question's, as for the count.
    const told = movedByReply && done.privileged !== true ? undefined : done;
    if (key !== undefined) await this.core.emitSessionAs(tx, key, session, told, pending);
    tx.after(() => this.waiters.wake(done));
    return done;
  }

  /** Q10: moves a pending async question to history without answering it (again, for one already retired: U8). */
  async retireIn(tx: Tx, q: StoredQuestion): Promise<void> {
    const first = q.retiredAtMs === undefined;
    const retiredAtMs = this.core.stamps.retired(q.retiredAtMs);
    await this.core.store.updateQuestion({ ...q, retiredAtMs });
    await tx.emit(
      'question.retired',
      { id: q.id, ...(q.sessionKey !== undefined ? { sessionKey: q.sessionKey } : {}), retiredAtMs },
      questionAudience(q),
    );
    // The session's pending count leaves out retired reminders, so its lists must hear of the change.
    if (first && q.sessionKey !== undefined) await this.core.emitSessionUpdated(tx, q.sessionKey, q);
  }
}

/**
 * Q10's count of a session's pending questions as read (not retired). On a shared database the count a locking read of
 * the session returns comes from before it waited for the lock; the list read after it is current.
 */
export function openCount(pending: StoredQuestion[]): number {
  return pending.filter((q) => q.retiredAtMs === undefined).length;
}