import type { AuditStoreMethods } from './audit-rows.ts';
import type { RouteStoreMethods } from './route-rows.ts';
import type { ChatMessage, QuestionStatus, Session } from '../../protocol/index.ts';
import type { IdempotentResult, RunRow, SessionIdempotency, SessionRow, StoredEvent, StoredQuestion } from './types-records.ts';
import type { LatestPrivilegedReply, PrivilegedReplyFilter, SearchStoreMethods } from './types-search.ts';
import type { SecretStoreMethods } from './types-secrets.ts';
import type { PushStoreMethods } from './types-push.ts';
import type { GrantStoreMethods } from './types-grants.ts';
import type { PendingTallyMethods } from './pending-tally.ts';
import type { LaneStore, SharedCapabilities } from './types-shared.ts';

// The one storage contract. Each concern's rows and methods have a file of their own (types-*.ts, audit-rows.ts);
// this file gathers them into SyncStore and Store, and every caller imports from here.
export type { ApprovalOffer, EventAudience, IdempotentResult, RunRow, SessionIdempotency, SessionRow, StoredApproval, StoredEvent, StoredQuestion } from './types-records.ts';
export type { LatestPrivilegedReply, PrivilegedReplyFilter, SearchCandidate, SearchScope, SearchStoreMethods } from './types-search.ts';
export type { SecretStoreMethods, StoredSecret, StoredSecretRequest } from './types-secrets.ts';
export type { PushKeys, PushPutResult, PushStoreMethods, PushSubscriptionRow } from './types-push.ts';
export type { GrantStoreMethods, StoredGrant } from './types-grants.ts';
export type { PendingTally, PendingTallyMethods } from './pending-tally.ts';
export type { LaneStore, SharedCapabilities, ToldCommit, ToldEvent } from './types-shared.ts';
export { laneStores } from './types-shared.ts';

/**
 * A store that answers at once (SQLite through better-sqlite3, memory): the same methods as Store, each returning its
 * result rather than a promise. `asyncStore` (async-store.ts) turns one into a Store. Every write is durable when the
 * call returns (R3), or inside a group when `commitGroup` returns; `transaction` groups writes so a state change and its
 * event are committed together or not at all. Secrets (K1), search (U19), Web Push (U17), grants (G5) and the audit log
 * (L1, appended in the transaction of each change it records) are parts of their own, named in the `extends`.
 */
export interface SyncStore extends SecretStoreMethods, SearchStoreMethods, PushStoreMethods, GrantStoreMethods, AuditStoreMethods, PendingTallyMethods {
  transaction<T>(fn: () => T): T;
  /**
   * One unit of the Store's asynchronous `transaction`: opened before the unit's function runs, then released (kept) or
   * rolled back once its promise settled. Nested in an open transaction or group, a savepoint.
   */
  openUnit(): { release(): void; rollback(): void };
  /**
   * Group commit: opens one transaction that every `transaction` after it joins as a nested one, until
   * `commitGroup` makes them all durable at once or `rollbackGroup` undoes them all. Not while a transaction is open.
   */
  beginGroup(): void;
  commitGroup(): void;
  rollbackGroup(): void;

  // events (R1, R2)
  /** `payloadJson`: the payload already as JSON, when the caller has it (the hub serialises each event once, for the store and the frame). */
  appendEvent(e: Omit<StoredEvent, 'seq'>, payloadJson?: string): number;
  eventsAfter(cursor: number, limit: number): StoredEvent[];
  /** Smallest seq still kept (0 when none kept yet); a cursor below oldest-1 cannot be resumed. */
  oldestEventSeq(): number;
  latestSeq(): number;
  /** Drops events older than `beforeMs` while keeping at least the newest `keepAtLeast`. */
  pruneEvents(beforeMs: number, keepAtLeast: number): number;

  // sessions (C1, A6)
  /** With `idempotency`, the session is remembered under (identity, key) so the same call later finds it. */
  createSession(row: SessionRow, idempotency?: SessionIdempotency): void;
  getSession(key: string): Session | undefined;
  /** The session created with this identity's idempotency key, also after a restart. */
  sessionByIdempotencyKey(identity: string, key: string): Session | undefined;
  listSessions(): Session[];
  /** Moves lastMessageAtMs, never back. Not for a privileged reply (A3): the stored value is what every reader may know. */
  touchSession(key: string, atMs: number): void;
  /**
   * A3: per session and asker, when the newest reply to that asker's privileged questions was sent (sessions without
   * one are left out). One read for a whole session list, whatever its length.
   */
  latestPrivilegedReplies(filter: PrivilegedReplyFilter): LatestPrivilegedReply[];
  /** C1 `sessions.update` and the first message's title (U15). */
  renameSession(key: string, title: string): void;

  // messages (C2, C3)
  insertMessage(msg: ChatMessage): void;
  /** Streaming: replaces the text of a message (delta / final). */
  updateMessageText(id: string, text: string): void;
  getMessage(id: string): ChatMessage | undefined;
  history(sessionKey: string, limit: number, before?: string): { messages: ChatMessage[]; hasMore: boolean };
  getIdempotent(identity: string, key: string): IdempotentResult | undefined;
  putIdempotent(identity: string, key: string, result: IdempotentResult, atMs: number): void;

  // questions (Q1..Q11)
  /**
   * `recordJson`: `q` already as JSON, when the caller has it (see storedRecordJson). A taken id throws. `idIsNew`: the
   * id was just made here, so none can have taken it; inside a transaction a network store may then send the insert
   * with the transaction's next statement instead of on its own, and a taken id would fail that one.
   */
  insertQuestion(q: StoredQuestion, recordJson?: string, idIsNew?: boolean): void;
  getQuestion(id: string): StoredQuestion | undefined;
  /** Replaces the stored record with this one (same id). */
  updateQuestion(q: StoredQuestion): void;
  listQuestions(filter: { sessionKey?: string; status?: QuestionStatus }): StoredQuestion[];
  /** How many pending, not retired questions `askedBy` asked: S5's per-asker limit (maxPendingQuestions), counted without reading them. */
  countPendingAskedBy(askedBy: string): number;
  /** Pending questions whose expiresAtMs <= nowMs. */
  dueQuestions(nowMs: number): StoredQuestion[];
  /** The earliest expiresAtMs among pending questions, or null. */
  nextExpiryMs(): number | null;
  dueRoutes: RouteStoreMethods['dueRoutes'];
  nextRouteMs: RouteStoreMethods['nextRouteMs'];

  // runs (C4, Q7, Q10)
  insertRun(run: RunRow): void;
  getRun(runId: string): RunRow | undefined;
  updateRun(run: RunRow): void;
  activeRuns(sessionKey?: string | null): RunRow[];

  // small key/value for gateway bookkeeping
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;

  close(): void;
}

type Asynchronous<S> = { [K in keyof S]: S[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : S[K] };

/**
 * The one storage contract, asynchronous, so that a network database (PostgreSQL, D1) never holds up the event loop:
 * every method of SyncStore, answering with a promise. `transaction(fn)` is one unit of work: `fn`'s writes (awaited
 * inside it) and its events are committed together or not at all; inside a group (`beginGroup`) it is a nested one,
 * undone alone if `fn` throws (types-shared.ts LaneStore). The caller runs one unit at a time per store (the hub does,
 * EventHub.commit).
 */
export interface Store extends Omit<Asynchronous<SyncStore>, keyof LaneStore | 'openUnit'>, LaneStore, SharedCapabilities {}
