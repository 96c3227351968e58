import { normaliseAnswers } from '../../answers/kinds/check-answers.ts';
import { AskdockError, invalidRequest, type Params, type QuestionRecord, type ReplyTo, type Result } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { ApprovalAnswers, RoutingHooks } from './question-hooks.ts';
import { defaultSurface } from './surface.ts';
import { askerSurface, closesOwnLink } from './own-link.ts';
import type { Core } from '../core.ts';
import type { Tx } from '../hub/hub.ts';
import { alreadyTerminal, invalidAnswer, isTerminal, questionAudience, questionNotFound, sameAnswers, toPublic } from './question-records.ts';
import { checkReply, type CheckedReply } from './question-replies.ts';
import { answeredBy, recordReplyIn } from './question-reply-record.ts';
import { voteIn } from './question-votes.ts';
import { newQuestion, type SessionBefore } from './question-request.ts';
import type { ExpiryScheduler } from './question-timers.ts';
import { AnswerWaiters } from './question-waiters.ts';
import { QuestionDuties } from './question-duties.ts';
import { noteQuestion, type HeardQuestion } from './question-heard.ts';
import { openCount, QuestionOutcomes, type Outcome } from './question-outcomes.ts';
import type { Cancellation } from '../hub/waiters.ts';
import { storedRecordJson } from '../store/rows.ts';
import { recordAsked } from '../audit/question-entries.ts';
import { recordNotified } from '../audit/route-entries.ts';
import type { StoredApproval, StoredQuestion } from '../store/types.ts';
import { recordFor } from '../routing/handoff-view.ts';
import { canAnswerQuestion, canSeeQuestion, forbidden, readsEverySession, seesEveryQuestion } from '../sessions/visibility.ts';

type WaitResult = Result<'question.waitAnswer'>;

/** The question lifecycle, Q1..Q11: request, wait, resolve, expire, cancel and async replies. */
export class QuestionManager {
  /** Set once the policy room is built (Core). */
  approvals: ApprovalAnswers | null = null;
  /** Set once the routing room is built (Core). */
  routing: RoutingHooks | null = null;
  private readonly waiters: AnswerWaiters;
  private readonly outcomes: QuestionOutcomes;
  /** Q7 and D3: expiry and the absent askers (question-duties.ts). */
  readonly duties: QuestionDuties;
  readonly expiry: ExpiryScheduler;
  /**
   * Questions as heard from committed events (every gateway's, on a shared database, in seq order): asked, and perhaps
   * resolved since, so a resolve finds its lane, and a wait its question, without reading it first; oldest dropped past
   * QUESTIONS_HEARD_KEPT.
   */
  private readonly questionsHeard = new Map<string, HeardQuestion>();

  constructor(private readonly core: Core, requesterGraceMs: number) {
    this.waiters = new AnswerWaiters(core.clock);
    this.outcomes = new QuestionOutcomes(core, this.waiters);
    if (core.hub.laned) core.hub.listenAll((ev) => noteQuestion(this.questionsHeard, ev));
    this.duties = new QuestionDuties(core, requesterGraceMs, this.outcomes);
    this.expiry = this.duties.expiry;
  }

  /** D3: the duty holder's turn (question-duties.ts). */
  runDuties(justTaken: boolean): Promise<void> {
    return this.duties.runDuties(justTaken);
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

  /** On gateway start: expiry and the absent askers' grace periods (question-duties.ts). */
  start(): Promise<void> {
    return this.duties.start();
  }

  stop(): void {
    this.duties.stop();
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
  /** `approval`: G11, the approval the policy room asks a person about (kept with the record). */
  async request(identity: Identity, clientId: string, p: Params<'question.request'>, approval?: StoredApproval): Promise<Result<'question.request'>> {
    // Checked inside the writing transaction: on a shared database another gateway may have just used the id (Q2) or asked in the session (Q11).
    const record = await this.core.hub.commit(async (tx) => {
      const made = await newQuestion(this.core, identity, clientId, p, approval);
      if (made.existing) return made.existing;
      if (this.routing) made.record = await this.routing.routeNew(identity, made.record, p);
      // One serialisation of the record, for the store and the event.
      const question = toPublic(made.record);
      const publicJson = JSON.stringify(question);
      const key = made.record.sessionKey;
      // The session and its pending questions were read (and locked) before: with this question they are what a read
      // would now return, so the insert needs no answer and may go with the unit's next statement.
      await this.core.store.insertQuestion(made.record, storedRecordJson(made.record, publicJson), p.id === undefined);
      const audience = questionAudience(made.record);
      if (made.record.approval && audience.question) audience.question.approval = true;
      await tx.emit('question.requested', { question }, audience, `{"question":${publicJson}}`);
      await recordAsked(this.core.audit, made.record);
      await recordNotified(this.core.audit, made.record);
      // A4: the session's count changed only for those who may see the question; no one else hears of it.
      if (key !== undefined && made.session) {
        const pending = this.core.store.shared && made.pending ? [...made.pending, made.record] : undefined;
        const session = { ...made.session, pendingQuestions: pending ? openCount(pending) : made.session.pendingQuestions + 1 };
        await this.core.emitSessionAs(tx, key, session, made.record, pending);
      }
      return made.record;
    }, p.sessionKey);
    this.expiry.noteExpiry(record.expiresAtMs);
    this.routing?.noted(record);
    return { id: record.id, expiresAtMs: record.expiresAtMs };
  }

  async get(identity: Identity, id: string): Promise<Result<'question.get'>> {
    return { question: recordFor(toPublic(await this.visible(identity, id)), identity.id) };
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
    return { questions: rows.map((q) => recordFor(toPublic(q), identity.id)) };
  }

  /** P5 snapshot: every pending question this identity may see. */
  async pendingFor(identity: Identity): Promise<QuestionRecord[]> {
    return (await this.list(identity, { status: 'pending' })).questions;
  }

  /** Q4: the asker waits; its own timeout answers `pending`; a cancel frame (or the socket closing) stops the wait. */
  /** `seen`: the record as read before the wait (what it is does not change: an approval stays one, G11). */
  async waitAnswer(identity: Identity, p: Params<'question.waitAnswer'>, cancellation: Cancellation, seen?: (q: HeardQuestion | StoredQuestion) => void): Promise<WaitResult> {
    // An outcome committed while the question is read (on a shared database, heard from another gateway before the read
    // returns) is caught, not lost between the read and the wait.
    const early = this.waiters.expect(p.id, p.includeResolutionId);
    try {
      const read = await this.visibleWhileWaiting(identity, p.id, p);
      if (read.askedBy !== identity.id)
        throw new AskdockError('FORBIDDEN', `only the agent that asked question "${read.id}" may wait for its answer`, {
          details: { id: read.id },
        });
      seen?.(read);
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
      const resolvedBy = { identity: identity.id, surface: askerSurface(p.surface, 'cancel') ?? defaultSurface(identity), atMs };
      await this.outcomes.finishIn(tx, q, { status: 'cancelled', reason: p.reason ?? 'cancelled', resolvedBy }, before);
      return { status: 'cancelled' };
    }
    const ownDone = closesOwnLink(identity, q, p, this.questionsHeard.get(q.id)?.asksApproval === true);
    if (!ownDone && !canAnswerQuestion(identity, q, await this.owner(q)))
      throw forbidden(`answering question "${q.id}"`, ['operator.admin', 'operator.questions'], identity);
    // Q1: the asker names only its own surfaces; a person any but the policy's (G11).
    if (p.surface === 'policy') throw invalidRequest('question.resolve', [{ path: 'surface', problem: 'policy is the surface of decisions the policy makes, not of answers or skips' }]);
    const named = ownDone ? askerSurface(p.surface, 'Done') : (p.surface ?? surface);
    const resolvedBy = answeredBy(this.core, identity, named ?? defaultSurface(identity), atMs);
    // E3: a routed question waits for those notified so far (and admins); E5: a quorum's short Allow is held.
    if (!isTerminal(q) && !ownDone) await this.routing?.checkAnswerIn(tx, identity, q, undefined, resolvedBy.surface);
    if ('skip' in p) {
      if (isTerminal(q)) {
        if (p.resolutionId !== undefined && q.resolutionId === p.resolutionId && q.status === 'skipped') return { status: 'skipped' };
        throw alreadyTerminal(q);
      }
      await this.outcomes.finishIn(tx, q, { status: 'skipped', resolvedBy, ...(p.resolutionId !== undefined ? { resolutionId: p.resolutionId } : {}) }, before);
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
    const vote = await voteIn(this, tx, identity, q, checked.answers, p.grant, resolvedBy, ownDone);
    if (vote.pending) return { status: 'pending', quorum: vote.pending };
    const answered = vote.q;
    const reply = await this.outcomes.asyncReplyIn(tx, identity, answered, checked.answers);
    const outcome = {
      status: 'answered' as const,
      answers: checked.answers,
      resolvedBy,
      ...(p.resolutionId !== undefined ? { resolutionId: p.resolutionId } : {}),
      ...(reply ? { replyMessageId: reply } : {}),
    };
    // A reply message moved the session (its last message): read it after.
    await this.outcomes.finishIn(tx, answered, outcome, reply ? undefined : before, reply !== undefined);
    return { status: 'answered', answers: checked.answers };
  }

  /** Q9 and PT5: validates a chat reply before anything is saved (see question-replies.ts). */
  async checkReply(identity: Identity, sessionKey: string, replyTo: ReplyTo, text: string): Promise<CheckedReply> {
    const q = await this.visible(identity, replyTo.questionId);
    const checked = checkReply(identity, q, await this.owner(q), sessionKey, replyTo, text);
    // E3: a plain reply answers a routed question only from those it waits for (and admins), as question.resolve does.
    if (!isTerminal(q)) this.routing?.requireEligible(identity, q);
    return checked;
  }

  /** Q9 and PT5: a reply's outcome, inside the transaction that saves the reply message (question-reply-record.ts). */
  recordReply(tx: Tx, identity: Identity, reply: CheckedReply, messageId: string, surface: string): Promise<boolean> {
    const { core, outcomes, routing, approvals } = this;
    return recordReplyIn({ core, outcomes, routing, approvals }, tx, identity, reply, messageId, surface);
  }

  /** Ends a pending question inside a commit (question-outcomes.ts). */
  finishIn(tx: Tx, q: StoredQuestion, outcome: Outcome, before?: SessionBefore): Promise<StoredQuestion> {
    return this.outcomes.finishIn(tx, q, outcome, before);
  }

  /** Q10: moves a pending async question to history (question-outcomes.ts). */
  retireIn(tx: Tx, q: StoredQuestion): Promise<void> {
    return this.outcomes.retireIn(tx, q);
  }

  clientConnected(identity: Identity, clientId: string): Promise<void> {
    return this.duties.clientConnected(identity, clientId);
  }

  clientDisconnected(identity: Identity, clientId: string): Promise<void> {
    return this.duties.clientDisconnected(identity, clientId);
  }
}
