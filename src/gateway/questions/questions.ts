import { normaliseAnswers } from '../../answers/kinds/check-answers.ts';
import {
  AskdockError,
  type Answers,
  type Params,
  type QuestionRecord,
  type ReplyTo,
  type Result,
  type Session,
} from '../../protocol/index.ts';
import { formatAsyncAnswerText } from '../../answers/async-reply.ts';
import type { Identity } from '../auth.ts';
import type { Core } from '../core.ts';
import type { Tx } from '../hub/hub.ts';
import {
  alreadyTerminal,
  invalidAnswer,
  isTerminal,
  questionAudience,
  questionNotFound,
  sameAnswers,
  toPublic,
} from './question-records.ts';
import { checkReply, type CheckedReply } from './question-replies.ts';
import { newQuestion, type SessionBefore } from './question-request.ts';
import { supersedeRuns } from '../runs/run-authority.ts';
import { ExpiryScheduler, RequesterPresence } from './question-timers.ts';
import { SharedPresence } from '../sessions/shared-presence.ts';
import { AnswerWaiters, type WaitedQuestion } from './question-waiters.ts';
import type { Cancellation } from '../hub/waiters.ts';
import { storedRecordJson } from '../store/rows.ts';
import type { StoredEvent, StoredQuestion } from '../store/types.ts';
import { canAnswerQuestion, canSeeQuestion, forbidden, readsEverySession, seesEveryQuestion, type QuestionLike } from '../sessions/visibility.ts';

type WaitResult = Result<'question.waitAnswer'>;
type Outcome = Pick<StoredQuestion, 'status'> & Partial<Pick<StoredQuestion, 'answers' | 'resolvedBy' | 'reason' | 'resolutionId' | 'replyMessageId'>>;

/** How many questions a gateway keeps in mind (QuestionManager.questionsHeard). */

/** A question as heard from its events: who may see it, its session, and its outcome once resolved. */
type HeardQuestion = WaitedQuestion & QuestionLike & { sessionKey?: string };
const QUESTIONS_HEARD_KEPT = 10_000;

/** Where an answer came from when the caller does not say (Q1 `surface`). */
export function defaultSurface(identity: Identity): string {
  return identity.role === 'agent' ? 'sdk' : 'control-ui';
}

/** The question lifecycle, Q1..Q11: request, wait, resolve, expire, cancel and async replies. */
export class QuestionManager {
  private readonly waiters: AnswerWaiters;
  readonly expiry: ExpiryScheduler;
  readonly presence: RequesterPresence | SharedPresence;
  /**
   * Questions as heard from committed events (every gateway's, on a shared database, in seq order): asked, and perhaps
   * resolved since, so a resolve finds its lane, and a wait its question, without reading it first; oldest dropped past
   * QUESTIONS_HEARD_KEPT.
   */
  private readonly questionsHeard = new Map<string, HeardQuestion>();

  constructor(private readonly core: Core, requesterGraceMs: number) {
    this.waiters = new AnswerWaiters(core.clock);
    if (core.hub.laned) core.hub.listenAll((ev) => this.noteQuestion(ev));
    // Timer callbacks have no caller to report to: a failing store is logged, and expiry retries a second later.
    const log = (what: string, err: unknown) => core.opts.log.error({ err }, `${what} failed`);
    this.expiry = new ExpiryScheduler(
      core.clock,
      async () => {
        try {
          return await core.store.nextExpiryMs();
        } catch (err) {
          log('reading the next expiry', err);
          return core.clock.now() + 1000;
        }
      },
      async (now) => {
        // D3: only the gateway holding the duties expires; the others look again a second later.
        if (core.duties && !core.duties.held) return false;
        try {
          await this.expireDue(now);
          return true;
        } catch (err) {
          log('expiring questions', err);
          return false;
        }
      },
    );
    const giveUp = async (askedBy: string, clientId: string) => {
      try {
        await this.cancelInactive(askedBy, clientId);
      } catch (err) {
        log('cancelling the questions of an absent asker', err);
      }
    };
    const shared = core.cluster;
    this.presence = shared
      ? new SharedPresence(shared, core.clock, core.gatewayId, requesterGraceMs, () => this.pendingBlocking(), giveUp)
      : new RequesterPresence(core.clock, requesterGraceMs, async (askedBy, clientId) => (await this.blockingOf(askedBy, clientId)).length > 0, giveUp);
  }

  /** D3: the duty holder's turn (see duties.ts): sweep expiry at once after a takeover, then the absent askers. */
  async runDuties(justTaken: boolean): Promise<void> {
    if (justTaken) this.expiry.sweepNow();
    if (this.presence instanceof SharedPresence) (await this.presence.sweep(justTaken));
  }

  /** D2: an event committed by any gateway (shared store): wake this gateway's waiters, arm its expiry. */
  async heard(event: string, payload: unknown): Promise<void> {
    if (event === 'question.resolved') {
      const told = payload as Pick<StoredQuestion, 'id' | 'status' | 'answers' | 'reason'>;
      if (!this.waiters.waiting(told.id)) return;
      // The event tells the outcome; the record is read only for a waiter that wants its resolutionId.
      const q = this.waiters.eventSuffices(told.id) ? told : await this.core.store.getQuestion(told.id);
      if (q && isTerminal(q)) this.waiters.wake(q as StoredQuestion);
    } else if (event === 'question.requested') {
      this.expiry.noteExpiry((payload as { question: QuestionRecord }).question.expiresAtMs ?? null);
    }
  }

  /** On gateway start: expire what ran out while down, and give every absent asker its grace period. */
  async start(): Promise<void> {
    this.expiry.start();
    for (const q of await this.core.store.listQuestions({ status: 'pending' })) {
      if (q.mode === 'blocking' && q.askerClientId) this.presence.startGrace(q.askedBy, q.askerClientId);
    }
  }

  stop(): void {
    this.expiry.stop();
    this.presence.stop();
  }

  /**
   * For a wait: a question heard of is as heard as of every event sent so far, and an outcome committed after them
   * reaches the wait (`waiters.expect`) as an event: no read needed. Otherwise (or for an outcome's resolutionId) it is read.
   */
  private async visibleWhileWaiting(identity: Identity, id: string, p: Params<'question.waitAnswer'>): Promise<HeardQuestion> {
    const heard = this.questionsHeard.get(id);
    // A wait of no time is a poll: it reads, so it agrees with a question.get made just before.
    const enough = heard && p.timeoutMs !== 0 && !(p.includeResolutionId && isTerminal(heard));
    if (enough && canSeeQuestion(identity, heard, await this.owner(heard))) return heard;
    return await this.visible(identity, id);
  }

  private async visible(identity: Identity, id: string): Promise<StoredQuestion> {
    const q = await this.core.store.getQuestion(id);
    if (!q || !canSeeQuestion(identity, q, await this.owner(q))) throw questionNotFound(id);
    return q;
  }

  private async owner(q: Pick<QuestionRecord, 'sessionKey'>): Promise<string | undefined> {
    return q.sessionKey === undefined ? undefined : await this.core.ownerOf(q.sessionKey);
  }

  /** Q2, Q3, Q11: stores a new pending question and announces it (Q8); a same-asker resend gets the first one back. */
  async request(identity: Identity, clientId: string, p: Params<'question.request'>): Promise<Result<'question.request'>> {
    // Checked inside the writing transaction: on a shared database another gateway may have just used the id (Q2) or asked in the session (Q11).
    const record = await this.core.hub.commit(async (tx) => {
      const made = await newQuestion(this.core, identity, clientId, p);
      if (made.existing) return made.existing;
      // One serialisation of the record, for the store and the event.
      const question = toPublic(made.record);
      const publicJson = JSON.stringify(question);
      const key = made.record.sessionKey;
      // The session and its pending questions were read (and locked) before: with this question they are what a read
      // would now return, so the insert needs no answer and may go with the unit's next statement.
      await this.core.store.insertQuestion(made.record, storedRecordJson(made.record, publicJson), p.id === undefined);
      await tx.emit('question.requested', { question }, questionAudience(made.record), `{"question":${publicJson}}`);
      // A4: the session's count changed only for those who may see the question; no one else hears of it.
      if (key !== undefined && made.session) {
        const pending = this.core.store.shared && made.pending ? [...made.pending, made.record] : undefined;
        const session = { ...made.session, pendingQuestions: pending ? openCount(pending) : made.session.pendingQuestions + 1 };
        await this.core.emitSessionAs(tx, key, session, made.record, pending);
      }
      return made.record;
    }, p.sessionKey);
    this.expiry.noteExpiry(record.expiresAtMs);
    return { id: record.id, expiresAtMs: record.expiresAtMs };
  }

  async get(identity: Identity, id: string): Promise<Result<'question.get'>> {
    return { question: toPublic((await this.visible(identity, id))) };
  }

  /** Q6: oldest first, only what this identity may see (A4). */
  async list(identity: Identity, filter: Params<'question.list'>): Promise<Result<'question.list'>> {
    // A4: a session this identity may not see does not exist for it. One that sees every question may name any session,
    // and where it may not read sessions an unknown one answers as one without questions, so the two look alike.
    const namesAny = seesEveryQuestion(identity) && !readsEverySession(identity);
    if (filter.sessionKey !== undefined && !namesAny) await this.core.readableSession(identity, filter.sessionKey);
    const rows: StoredQuestion[] = [];
    for (const q of await this.core.store.listQuestions(filter)) if (canSeeQuestion(identity, q, await this.owner(q))) rows.push(q);
    rows.sort((a, b) => a.createdAtMs - b.createdAtMs);
    return { questions: rows.map(toPublic) };
  }

  /** P5 snapshot: every pending question this identity may see. */
  async pendingFor(identity: Identity): Promise<QuestionRecord[]> {
    return (await this.list(identity, { status: 'pending' })).questions;
  }

  /** Q4: the asker waits; its own timeout answers `pending`; a cancel frame (or the socket closing) stops the wait. */
  async waitAnswer(identity: Identity, p: Params<'question.waitAnswer'>, cancellation: Cancellation): Promise<WaitResult> {
    // An outcome committed while the question is read (on a shared database, heard from another gateway before the read
    // returns) is caught, not lost between the read and the wait.
    const early = this.waiters.expect(p.id, p.includeResolutionId);
    try {
      const read = await this.visibleWhileWaiting(identity, p.id, p);
      if (read.askedBy !== identity.id)
        throw new AskdockError('FORBIDDEN', `only the agent that asked question "${read.id}" may wait for its answer`, {
          details: { id: read.id },
        });
      const heard = early.outcome();
      return this.waiters.wait(heard && !isTerminal(read) ? heard : read, p, cancellation);
    } finally {
      early.done();
    }
  }

  /** Q5: answer, skip, or (the asker) cancel; terminal records answer QUESTION_ALREADY_TERMINAL unless it is a repeat. */
  /** `surface`: the connection's (surface.ts), used when the request names none. */
  async resolve(identity: Identity, p: Params<'question.resolve'>, surface?: string): Promise<Result<'question.resolve'>> {
    // The record is read inside the writing transaction, so across gateways the database decides which resolve wins (D2).
    // Where units run in lanes, in its session's (as heard, else read ahead from what is committed).
    const store = this.core.store;
    const told = this.questionsHeard.get(p.id);
    const heard = told && (told.sessionKey ?? null);
    const key = !store.questionSession || !this.core.hub.laned ? undefined : heard !== undefined ? (heard ?? p.id) : ((await store.questionSession(p.id)) ?? p.id);
    // On a shared database the session as heard is read with the question (one round trip), and the update needs no answer.
    const session = store.shared && typeof heard === 'string' ? heard : undefined;
    return await this.core.hub.commit(async (tx) => this.resolveIn(tx, identity, p, surface, session), key);
  }

  private noteQuestion(ev: StoredEvent): void {
    if (ev.event === 'question.requested') {
      const q = (ev.payload as { question: QuestionRecord }).question;
      // What visibility (A3), a lane and a wait need of it, not its items.
      this.questionsHeard.set(q.id, {
        id: q.id,
        ...(q.sessionKey !== undefined ? { sessionKey: q.sessionKey } : {}),
        askedBy: q.askedBy,
        ...(q.privileged ? { privileged: true } : {}),
        status: q.status,
      });
      if (this.questionsHeard.size > QUESTIONS_HEARD_KEPT) this.questionsHeard.delete(this.questionsHeard.keys().next().value!);
    } else if (ev.event === 'question.resolved') {
      // Its outcome as a read would give it (bar the resolutionId, which the event does not tell).
      const { id, status, answers, reason } = ev.payload as { id: string; status: QuestionRecord['status']; answers?: Answers; reason?: string };
      const q = this.questionsHeard.get(id);
      if (q) this.questionsHeard.set(id, { ...q, status, ...(answers ? { answers } : {}), ...(reason !== undefined ? { reason } : {}) });
    }
  }

  private async resolveIn(
    tx: Tx,
    identity: Identity,
    p: Params<'question.resolve'>,
    surface: string | undefined,
    sessionKey: string | undefined,
  ): Promise<Result<'question.resolve'>> {
    const [q, session, pending] = await Promise.all([
      this.visible(identity, p.id),
      sessionKey !== undefined ? this.core.getSession(sessionKey) : undefined,
      this.core.pendingWith(sessionKey),
    ]);
    // What finishIn needs of the session, when it is the question's and nothing else in this unit changes it.
    const before = q.sessionKey !== undefined && q.sessionKey === sessionKey ? { session, pending } : undefined;
    const atMs = this.core.clock.now();
    if ('cancel' in p) {
      if (q.askedBy !== identity.id)
        throw new AskdockError('FORBIDDEN', `only the agent that asked question "${q.id}" may cancel it; answer or skip it instead`, {
          details: { id: q.id },
        });
      if (isTerminal(q)) throw alreadyTerminal(q);
      const resolvedBy = { identity: identity.id, surface: defaultSurface(identity), atMs };
      await this.finishIn(tx, q, { status: 'cancelled', reason: p.reason ?? 'cancelled', resolvedBy }, before);
      return { status: 'cancelled' };
    }
    if (!canAnswerQuestion(identity, q, await this.owner(q)))
      throw forbidden(`answering question "${q.id}"`, ['operator.admin', 'operator.questions'], identity);
    const resolvedBy = { identity: identity.id, surface: p.surface ?? surface ?? defaultSurface(identity), atMs };
    if ('skip' in p) {
      if (isTerminal(q)) {
        if (p.resolutionId !== undefined && q.resolutionId === p.resolutionId && q.status === 'skipped') return { status: 'skipped' };
        throw alreadyTerminal(q);
      }
      await this.finishIn(tx, q, { status: 'skipped', resolvedBy, ...(p.resolutionId !== undefined ? { resolutionId: p.resolutionId } : {}) }, before);
      return { status: 'skipped' };
    }
    const checked = normaliseAnswers(q.questions, p.answers);
    if (isTerminal(q)) {
      const repeat =
        p.resolutionId !== undefined &&
        q.resolutionId === p.resolutionId &&
        q.status === 'answered' &&
        checked.ok &&
        sameAnswers(checked.answers, q.answers);
      if (repeat) return { status: q.status, ...(q.answers ? { answers: q.answers } : {}) };
      throw alreadyTerminal(q);
    }
    if (!checked.ok) throw invalidAnswer(q, checked.problems);
    const reply = await this.asyncReplyIn(tx, identity, q, checked.answers);
    const outcome = {
      status: 'answered' as const,
      answers: checked.answers,
      resolvedBy,
      ...(p.resolutionId !== undefined ? { resolutionId: p.resolutionId } : {}),
      ...(reply ? { replyMessageId: reply } : {}),
    };
    // A reply message moved the session (its last message): read it after.
    await this.finishIn(tx, q, outcome, reply ? undefined : before);
    return { status: 'answered', answers: checked.answers };
  }

  /**
   * Q9: an async question of a session is answered by an ordinary message in it, whatever surface answered (a link
   * page, a script resolving it): the same Q9 text and `replyTo` a chat.send from the dock carries, saved in the
   * transaction that answers the record, so the agent reads the answer in its conversation. Must come before any
   * other event of the transaction (the message's seq is its event's).
   */
  private async asyncReplyIn(tx: Tx, identity: Identity, q: StoredQuestion, answers: Answers): Promise<string | undefined> {
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
    });
    await supersedeRuns(this.core, tx, q.sessionKey, q.id);
    return message.id;
  }

  /** Q9 and PT5: validates a chat reply before anything is saved (see question-replies.ts). */
  async checkReply(identity: Identity, sessionKey: string, replyTo: ReplyTo, text: string): Promise<CheckedReply> {
    const q = await this.visible(identity, replyTo.questionId);
    return checkReply(identity, q, await this.owner(q), sessionKey, replyTo, text);
  }

  /** Q9 and PT5: inside the transaction that saves the reply message; `surface` is the sender's (surface.ts). */
  async recordReply(tx: Tx, identity: Identity, reply: CheckedReply, messageId: string, surface: string): Promise<void> {
    const resolvedBy = { identity: identity.id, surface, atMs: this.core.clock.now() };
    const { q, answers } = reply;
    const status = reply.skipped ? 'skipped' : 'answered';
    await this.finishIn(tx, q, { status, ...(answers ? { answers } : {}), resolvedBy, replyMessageId: messageId });
  }

  /** Ends a pending question inside a commit: store, Q8 event, session count, then wakes the waiters after commit. */
  async finishIn(tx: Tx, q: StoredQuestion, outcome: Outcome, before?: SessionBefore): Promise<StoredQuestion> {
    const done: StoredQuestion = { ...q, ...outcome };
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
      },
      questionAudience(done),
    );
    if (key !== undefined) await this.core.emitSessionAs(tx, key, session, done, pending);
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

  /** Q7: the record turns expired at expiresAtMs, whether or not anyone waits. */
  private async expireDue(nowMs: number): Promise<void> {
    if ((await this.core.store.dueQuestions(nowMs)).length === 0) return;
    // Read again inside the transaction: another gateway may have resolved some meanwhile (D3).
    await this.core.hub.commit(async (tx) => {
      for (const q of await this.core.store.dueQuestions(nowMs)) await this.finishIn(tx, q, { status: 'expired' });
    });
  }

  private async pendingBlocking(): Promise<StoredQuestion[]> {
    return (await this.core.store.listQuestions({ status: 'pending' })).filter((q) => q.mode === 'blocking');
  }

  private async blockingOf(askedBy: string, clientId: string): Promise<StoredQuestion[]> {
    return (await this.core.store.listQuestions({ status: 'pending' })).filter((q) => q.mode === 'blocking' && q.askedBy === askedBy && q.askerClientId === clientId);
  }

  /** Q7: the asking client stayed away for the whole grace period. */
  private async cancelInactive(askedBy: string, clientId: string): Promise<void> {
    if ((await this.blockingOf(askedBy, clientId)).length === 0) return;
    await this.core.hub.commit(async (tx) => {
      for (const q of await this.blockingOf(askedBy, clientId)) await this.finishIn(tx, q, { status: 'cancelled', reason: 'requester-inactive' });
    });
  }

  async clientConnected(identity: Identity, clientId: string): Promise<void> {
    await this.presence.connected(identity.id, clientId);
  }

  async clientDisconnected(identity: Identity, clientId: string): Promise<void> {
    await this.presence.disconnected(identity.id, clientId);
  }
}

/**
 * Q10's count of a session's pending questions as read (not retired). On a shared database the count a locking read of
 * the session returns comes from before it waited for the lock; the list read after it is current.
 */
function openCount(pending: StoredQuestion[]): number {
  return pending.filter((q) => q.retiredAtMs === undefined).length;
}
