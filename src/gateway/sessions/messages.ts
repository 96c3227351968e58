import { invalidRequest, type ChatMessage, type ChatState, type MessageRole, type ReplyTo, type Session } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { Tx } from '../hub/hub.ts';
import { newId } from '../infra/ids.ts';
import type { OrderStamps } from '../runs/order-stamps.ts';
import type { Store, StoredQuestion } from '../store/types.ts';
import { movedTo } from './privileged-activity.ts';
import type { SessionAccess } from './session-access.ts';
import { canSeeQuestion, seesEveryQuestion, type QuestionLike } from './visibility.ts';

export type NewMessage = {
  sessionKey: string;
  role: MessageRole;
  text: string;
  authorId: string;
  runId?: string;
  replyTo?: ReplyTo;
  /** A3: the message answers a privileged question asked by this agent, so it is privileged too. */
  privilegedReplyOf?: string;
  state: ChatState;
  /**
   * The caller sends this session's `session.updated` later in the same unit, read after this message and to every
   * reader this one would reach (a question's outcome, QuestionOutcomes.finishIn): this message sends none of its own,
   * which would carry nothing the later one does not.
   */
  sessionUpdatedFollows?: true;
};

/** How many pending questions a session.updated event may carry in its audience (more: the fan-out reads them). */
const PENDING_IN_AUDIENCE = 100;

/** A session's messages (C1-C3) and the `session.updated` its changes send. */
export class Messages {
  constructor(
    private readonly store: Store,
    private readonly access: SessionAccess,
    private readonly stamps: OrderStamps,
  ) {}

  /** `question`: the change is that question's (its count): only the session's readers who may see it hear of it (A3/A4). */
  async emitSessionUpdated(tx: Tx, sessionKey: string, question?: QuestionLike): Promise<void> {
    await this.emitSessionAs(tx, sessionKey, await this.access.getSession(sessionKey), question);
  }

  /**
   * `emitSessionUpdated` with the session already read, e.g. together with the change that moved its count: a read
   * sent right after a write in the same unit sees it (statements run in the order sent), and on a network database
   * both leave in one round trip.
   */
  async emitSessionAs(tx: Tx, sessionKey: string, session: Session | undefined, question?: QuestionLike, pending?: StoredQuestion[]): Promise<void> {
    const only = question && { askedBy: question.askedBy, privileged: question.privileged === true };
    if (!session) return;
    const open = pending && pending.length <= PENDING_IN_AUDIENCE ? pending.filter((q) => q.retiredAtMs === undefined) : undefined;
    await tx.emit(
      'session.updated',
      { session },
      {
        sessionKey,
        ...(only ? { questionViewersOnly: only } : {}),
        ...(open ? { pending: open.map((q) => (q.privileged ? { askedBy: q.askedBy, privileged: true as const } : { askedBy: q.askedBy })) } : {}),
      },
    );
  }

  /**
   * On a shared database, the pending questions to read together with a session's new count (emitSessionAs), so each
   * gateway's fan-out of the event needs no read of its own; elsewhere none (the fan-out reads them, in process).
   */
  pendingWith(sessionKey: string | undefined): Promise<StoredQuestion[]> | undefined {
    return sessionKey !== undefined && this.store.shared ? this.store.listQuestions({ sessionKey, status: 'pending' }) : undefined;
  }

  /**
   * C3 as this identity reads it (A3): replies to privileged questions it may not see are left out as if never sent,
   * the page is filled from older messages instead and `hasMore` counts only what it may read.
   */
  async historyFor(identity: Identity, sessionKey: string, limit: number, before?: string): Promise<{ messages: ChatMessage[]; hasMore: boolean }> {
    const hidden = await this.hiddenReplies(identity, sessionKey);
    if (before !== undefined) {
      // C3: a cursor this reader was never shown is a wrong parameter, not the end of the history (A3: a hidden reply too).
      const at = await this.store.getMessage(before);
      if (!at || at.sessionKey !== sessionKey || (at.replyTo !== undefined && hidden.has(at.replyTo.questionId)))
        throw invalidRequest('chat.history', [{ path: 'before', problem: `no message "${before}" in session "${sessionKey}": give the id of a message chat.history listed` }]);
    }
    if (hidden.size === 0) return await this.store.history(sessionKey, limit, before);
    const shown = (m: ChatMessage) => m.replyTo === undefined || !hidden.has(m.replyTo.questionId);
    let kept: ChatMessage[] = [];
    for (let cursor = before; ; ) {
      const page = await this.store.history(sessionKey, limit, cursor);
      kept = [...page.messages.filter(shown), ...kept];
      if (kept.length > limit || !page.hasMore || page.messages.length === 0) break;
      cursor = page.messages[0].id;
    }
    return { messages: kept.slice(-limit), hasMore: kept.length > limit };
  }

  /** A3: the privileged questions of a session whose replies this identity may not read (whoever created the session). */
  private async hiddenReplies(identity: Identity, sessionKey: string): Promise<Set<string>> {
    if (seesEveryQuestion(identity)) return new Set();
    const ids = (await this.store.listQuestions({ sessionKey }))
      .filter((q) => q.privileged === true && !canSeeQuestion(identity, q, undefined))
      .map((q) => q.id);
    return new Set(ids);
  }

  /**
   * Saves a new message with its `chat` event; the message's `seq` is the seq of that event,
   * so it must be the first event of its transaction. A privileged reply (A3) goes only to those who may see its
   * question, as does the session.updated it moves; its other readers know the session as before (no lastMessageAtMs,
   * no session.updated).
   */
  async appendMessage(tx: Tx, m: NewMessage): Promise<ChatMessage> {
    const now = this.stamps.messageCreated();
    // On a shared database the seq is provisional until commit (D2), as is its event's, renumbered together: taken now
    // for this message, so the events other lanes hold during the writes below cannot take it first.
    const seq = this.store.reserveSeq?.() ?? (await this.store.latestSeq()) + 1;
    const message: ChatMessage = {
      id: newId('m'),
      sessionKey: m.sessionKey,
      role: m.role,
      text: m.text,
      authorId: m.authorId,
      ...(m.runId !== undefined ? { runId: m.runId } : {}),
      ...(m.replyTo !== undefined ? { replyTo: m.replyTo } : {}),
      createdAtMs: now,
      seq,
    };
    await this.store.insertMessage(message);
    const asker = m.privilegedReplyOf;
    const privileged = asker !== undefined;
    if (!privileged) await this.store.touchSession(m.sessionKey, now);
    const got = await tx.emit(
      'chat',
      { sessionKey: m.sessionKey, ...(m.runId !== undefined ? { runId: m.runId } : {}), message, state: m.state },
      { sessionKey: m.sessionKey, ...(privileged ? { questionViewersOnly: { askedBy: asker, privileged: true } } : {}) },
    );
    if (got !== seq) throw new Error(`message seq ${seq} does not match its event seq ${got}`);
    if (!m.sessionUpdatedFollows) await this.emitMovedBy(tx, message, asker);
    return message;
  }

  /**
   * The `session.updated` a saved message sends: appendMessage's own, or its caller's when it said one would follow
   * (`sessionUpdatedFollows`) and in the end none did. `privilegedReplyOf` as in NewMessage.
   */
  async emitMovedBy(tx: Tx, message: ChatMessage, privilegedReplyOf: string | undefined): Promise<void> {
    const key = message.sessionKey;
    if (privilegedReplyOf === undefined) return await this.emitSessionUpdated(tx, key);
    // A3: only those who may read the reply hear the session moved by it (the stored session never moves).
    const moved = await this.access.getSession(key).then((s) => s && movedTo(s, message.createdAtMs));
    await this.emitSessionAs(tx, key, moved, { askedBy: privilegedReplyOf, privileged: true });
  }
}
