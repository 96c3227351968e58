import type { AuditStoreMethods } from './audit-rows.ts';
import type { RouteStoreMethods } from './route-rows.ts';
import type { ApprovalDecision, ApprovalRequest, ChatMessage, EventName, Phase, PolicyGrant, QuestionRecord, QuestionStatus, Scope, SecretRequestRecord, SecretStatus, Session, StopReason } from '../../protocol/index.ts';

/** Who may see an event (A3/A4), stored beside it so resume (R2) can filter without re-reading records. */
export type EventAudience = {
  /** The session the event belongs to; null for sessionless. */
  sessionKey: string | null;
  /** Present for question events: the question's own visibility inputs. */
  question?: { askedBy: string; privileged: boolean };
  /** Only this identity sees it (e.g. agent-directed events); undefined means the usual rules. */
  onlyIdentity?: string;
  /**
   * A3/A4: on top of the usual session rules, only those who may see this question see the event: the reply to a
   * privileged question, a session count that changed with a question.
   */
  questionViewersOnly?: { askedBy: string; privileged: boolean };
  /**
   * A session.updated event's session's pending, unretired questions as the change left them (who asked, whether
   * privileged): each viewer's own count follows from it, so a fan-out or replay need not read them. Absent: read.
   */
  pending?: { askedBy: string; privileged?: true }[];
  /** Only identities holding this scope see it (G12: the policy's events go to operator.admin alone). */
  onlyScope?: Scope;
};

export type StoredEvent = {
  seq: number;
  event: EventName;
  payload: unknown;
  audience: EventAudience;
  atMs: number;
};

/** A session row as stored; `pendingQuestions` is counted by the store when read. */
export type SessionRow = Omit<Session, 'pendingQuestions'>;

/** A question as stored: the public record plus what only the gateway needs. */
export type StoredQuestion = QuestionRecord & {
  /** The resolutionId of the resolve that ended it, for idempotent repeats (Q5). */
  resolutionId?: string;
  /** The asking client's `connect.client.id`: its reconnect keeps a blocking question alive (Q7). */
  askerClientId?: string;
  /** G11: the approval this question asks for, and how the gateway reads its answers. */
  approval?: StoredApproval;
};

/** G7: an "Always allow…" option the gateway offered: answering it allows and makes a grant of `rule` in `scope`. */
export type ApprovalOffer = { label: string; scope: PolicyGrant['scope']; rule: string };

/** G11/G7: an approval as kept with its question record (never on the wire as such). */
export type StoredApproval = {
  request: ApprovalRequest;
  /** G7: a person's Allow applies to this exact request (tool, input, folder). */
  digest: string;
  /** The rules that made it ask (G11 `rules` on a person's decision). */
  askedRules: string[];
  offers: ApprovalOffer[];
  /** Set once decided (by the policy, a grant, a person or the clock). */
  decision?: ApprovalDecision;
};

/** G5: a grant as stored; `revokedAtMs` once revoked. A grant is live while unrevoked and before `expiresAt`. */
export type StoredGrant = PolicyGrant & { createdAtMs: number; revokedAtMs?: number };

export type RunRow = {
  runId: string;
  sessionKey: string | null;
  agentId: string;
  recovery: boolean;
  startedAtMs: number;
  endedAtMs?: number;
  stopReason?: StopReason;
  /** Phase of the run's last final message, or the one given at run.end (Q10). */
  phase?: Phase;
  /** The user message that started it, when known (Q10 without runId). */
  triggerMessageId?: string;
  /** RU1: set for a subagent run; such a run may not ask. */
  parentRunId?: string;
  /** RU2: when an unrelated user message arrived after this run's blocking question; its chat.inject is refused from then on. */
  supersededAtMs?: number;
  /** C4: the message this run's deltas stream into, until its `final`; stored, so a stream goes on after a restart (R3). */
  streamingMessageId?: string;
};

export type SessionIdempotency = { identity: string; key: string };

/** K1: a secret request as stored: the public record plus the asking client. Never holds a value. */
export type StoredSecretRequest = SecretRequestRecord & { askerClientId?: string };

/** K1: a stored secret: only its ciphertext (encrypted above the store, so every store gets it for free). */
/** K1: a secret belongs to the agent identity that asked for it (`owner`); another identity's secret of the same name is another secret. */
export type StoredSecret = { owner: string; name: string; ciphertext: string; storedBy: string; requestId?: string; storedAtMs: number };

export type IdempotentResult = { messageId: string; seq: number };

/** U19: where a search looks. The gateway narrows it to what the identity may read, then checks each hit (A3). */
export type SearchScope = {
  /** Lower-case words; each must start a word of the text (see src/lib/search-text.ts). */
  terms: string[];
  /** Sessions whose titles and messages may match; null: every session. */
  sessionKeys: readonly string[] | null;
  /** Which question records may match; null: none. */
  questions: {
    /** Sessions whose questions may match; null: every session. */
    sessionKeys: readonly string[] | null;
    /** Sessionless questions may match too. */
    sessionless: boolean;
    /** Only the questions this identity asked (an agent's). */
    askedBy?: string;
    /** Privileged questions may match too (A3); absent: they may not. */
    privileged?: boolean;
  } | null;
  /**
   * Which replies to privileged questions (A3) may match: every one, those to questions `askedBy` asked, or (absent) none.
   * The stores test it in their index, so a reply that may not match is never a candidate (no count or time betrays it).
   */
  privilegedReplies?: 'every' | { askedBy: string };
  /** At most this many of each kind, newest first. */
  limit: number;
};

/** A3: the time of a session's newest reply to a privileged question `askedBy` asked. */
export type LatestPrivilegedReply = { sessionKey: string; askedBy: string; atMs: number };
/** Every asker's replies, or only those to `askedBy`'s questions; in every session, or only in these. */
export type PrivilegedReplyFilter = { askedBy?: string; sessionKeys?: readonly string[] };

export type SearchCandidate = {
  kind: 'session' | 'message' | 'question';
  id: string;
  sessionKey: string | null;
  /** The text that matched: the title, the message, or the question's headers, wording and answers. */
  text: string;
  atMs: number;
  /** A message that answers a question (Q9/PT5): it is as visible as that question (A3). */
  replyToQuestionId?: string;
};
/** U17: the gateway's VAPID key pair (base64url, as web-push makes them); made once, kept with the gateway's data. */
export type PushKeys = { publicKey: string; privateKey: string; createdAtMs: number };
/**
 * U17: one browser's push subscription, for the identity that subscribed it. `tokenHash` names the token it was made
 * with (a hash of that token's hash, never the token): once that token no longer authenticates, the subscription ends.
 */
export type PushSubscriptionRow = { endpoint: string; identity: string; tokenHash: string; p256dh: string; auth: string; createdAtMs: number };
/** What `putPushSubscription` did: stored it (and dropped these endpoints of the identity's oldest), or refused it. */
export type PushPutResult = { stored: true; dropped: string[] } | { stored: false; reason: 'taken' };

/**
 * A store that answers at once (SQLite through better-sqlite3, memory): the same methods as Store, each returning its
 * result rather than a promise. `asyncStore` (async-store.ts) turns one into a Store. Every write is durable when the
 * call returns (R3), or inside a group when `commitGroup` returns; `transaction` groups writes so a state change and its
 * event are committed together or not at all.
 */
export interface SyncStore {
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

  // secrets (K1): requests without values, and values as ciphertext only
  insertSecretRequest(r: StoredSecretRequest): void;
  getSecretRequest(id: string): StoredSecretRequest | undefined;
  /** Replaces the stored request with this one (same id). */
  updateSecretRequest(r: StoredSecretRequest): void;
  /** Oldest first. */
  listSecretRequests(filter: { status?: SecretStatus }): StoredSecretRequest[];
  /** Stores or replaces the owner's secret of this name. */
  putSecret(secret: StoredSecret): void;
  /** The owner's secret of this name; another owner's of the same name is never returned. */
  getSecret(owner: string, name: string): StoredSecret | undefined;

  // search (U19): from an index (SQLite FTS5, PostgreSQL full-text), never a scan of every message
  /** Up to `scope.limit` newest matches of each kind: session titles, messages, question records. */
  search(scope: SearchScope): SearchCandidate[];
  // Web Push (U17)
  /** The stored VAPID key pair; `fresh` is stored only when there is none yet (the first gateway's pair wins). */
  pushKeys(fresh: PushKeys): PushKeys;
  /**
   * Stores or replaces the subscription of this endpoint when it is new or already `s.identity`'s (a browser
   * re-subscribing moves to the end); an endpoint another identity holds is refused (`taken`), never moved. With `keep`,
   * the identity's oldest subscriptions beyond `keep` (this one counted) are deleted in the same change.
   */
  putPushSubscription(s: PushSubscriptionRow, keep?: number): PushPutResult;
  /** Deletes the subscription of this endpoint, only when it is `identity`'s if that is given; true when one was deleted. */
  deletePushSubscription(endpoint: string, identity?: string): boolean;
  /** Oldest first; every identity's when `identity` is not given. */
  listPushSubscriptions(identity?: string): PushSubscriptionRow[];

  // grants (G5): "Always allow…" answers, made in the transaction of the answer
  /** A taken id throws. */
  insertGrant(g: StoredGrant): void;
  getGrant(id: string): StoredGrant | undefined;
  /** Oldest first: with `liveAtMs`, only the unrevoked grants whose expiresAt is after it; else every grant. */
  listGrants(liveAtMs?: number): StoredGrant[];
  /** Marks a live grant revoked; false when there is none by that id, or it was already revoked. */
  revokeGrant(id: string, atMs: number): boolean;

  // L1: the audit log (audit-rows.ts), appended in the transaction of each change it records
  appendAudit: AuditStoreMethods['appendAudit'];
  auditSize: AuditStoreMethods['auditSize'];
  auditLines: AuditStoreMethods['auditLines'];
  auditAnswers: AuditStoreMethods['auditAnswers'];
  insertAuditCheckpoint: AuditStoreMethods['insertAuditCheckpoint'];
  auditCheckpoints: AuditStoreMethods['auditCheckpoints'];

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
 * undone alone if `fn` throws. The caller runs one unit at a time per store (the hub does, EventHub.commit).
 */
export interface Store extends Omit<Asynchronous<SyncStore>, 'transaction' | 'openUnit'>, SharedCapabilities {
  transaction<T>(fn: () => Promise<T> | T): Promise<T>;
}

/** One lane's transactions and group (`transaction` inside a running unit nests in that unit's, whatever its lane). */
export type LaneStore = Pick<Store, 'transaction' | 'beginGroup' | 'commitGroup' | 'rollbackGroup'>;

/**
 * What a database several gateways share can do, declared by its store; a single gateway's store leaves each out, and
 * the default (named on each) is what a single gateway does. Only where the gateway is assembled asks which engine runs.
 */
export interface SharedCapabilities {
  /** Other gateways commit to this store too (default: none does, so this gateway's own writes are all there is). */
  readonly shared?: true;
  /** How many lanes: transactions of one gateway open side by side, each with its own group of units (D5; default: one, the store itself). */
  readonly lanes?: number;
  lane?(i: number): LaneStore;
  /**
   * Runs `fn(seq, events)` for each commit of any gateway (`seq` its last one, `events` what it committed when the
   * notice could carry them), and `fn(null)` when notices may have been missed (default: no notices).
   */
  onCommitted?(fn: (seq: number | null, events?: StoredEvent[]) => void): () => void;
  /** Runs `fn` with its reads taking what is committed now, not waiting for this gateway's open transactions (default: `fn()`). */
  readCommitted?<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Runs `fn` with its reads outside a transaction waiting for what `before` returns instead of this gateway's open
   * transactions (default: `fn()`, every read sees this gateway's own writes).
   */
  readsAfter?<T>(before: () => Promise<unknown> | null, fn: () => T): T;
  /**
   * Inside a transaction: a provisional seq for a message about to be written in it, kept for that message's `chat`
   * event, which carries it whatever other events are held meanwhile (the real one is given at commit, D2); null
   * outside one (default: none, the next seq is the latest one's successor).
   */
  reserveSeq?(): number | null;
  /** The real seq of a provisional one, once its transaction committed (default: seqs are real when handed out). */
  settledSeq?(seq: number): number;
  /** The session of a question as committed, without waiting for open transactions (default: none asked; lanes are one). */
  questionSession?(id: string): Promise<string | null>;
  /** True when `err` undid a unit to break a deadlock, so it runs again in the lane's next group (default: never). */
  mustRetry?(err: unknown): boolean;
}

/** The store of each lane: the store itself unless it declares lanes. */
export function laneStores(store: Store): LaneStore[] {
  const { lanes, lane } = store;
  return lanes !== undefined && lane ? Array.from({ length: lanes }, (_, i) => lane.call(store, i)) : [store];
}
