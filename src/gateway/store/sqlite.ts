import type { QuestionStatus } from '../../protocol/index.ts';
import { startCheckpointer, type Checkpointer } from './checkpointer.ts';
import { questionColumns, runColumns, sessionRowOf, toEvent, toMessage, toQuestion, toRun, toSession, type MessageDbRow } from './rows.ts';
import { keepAckedSeq, lockDatabase } from './sqlite-guard.ts';
import { KnownRecords } from './known-records.ts';
import { QuestionIndex } from './sqlite-question-index.ts';
import { openCheckedDatabase } from './sqlite-open.ts';
import { prepareSearch } from './sqlite-search.ts';
import { prepareLatestPrivileged } from './latest-privileged.ts';
import { prepareSqlitePendingTallies } from './pending-tally.ts';
import { prepareStatements } from './sqlite-statements.ts';
import { sqlitePushMethods } from './sqlite-push.ts';
import { sqliteGrantMethods } from './sqlite-grants.ts';
import { sqliteAuditMethods } from './sqlite-audit.ts';
import { sqliteSecretMethods } from './sqlite-secrets.ts';
import { sqliteTransactions } from './sqlite-transactions.ts';
import { sqliteRouteMethods } from './sqlite-routing.ts';
import { missingRow, shapeMessage, shapeSessionRow, toJson } from './shape.ts';
import { asyncStore } from './async-store.ts';
import type { IdempotentResult, Store, SyncStore } from './types.ts';

/** What the open connection really runs with; `synchronous` is per connection, so only the store can say. */
export type SqliteSettings = { journalMode: string; synchronous: 'OFF' | 'NORMAL' | 'FULL' | 'EXTRA'; checkpoints: 'inline' | 'background' };
/** Background checkpoints held and resumed: what a test uses to see what a commit alone does to the file. */
type CheckpointHold = { holdCheckpoints(): Promise<void>; resumeCheckpoints(): void };
export type SqliteStore = Store & { settings(): SqliteSettings } & CheckpointHold;
type SyncSqliteStore = SyncStore & { settings(): SqliteSettings } & CheckpointHold;
export type SqliteOptions = {
  /** Checkpoint the WAL on a background thread rather than inside commits on the caller's thread (the gateway does). */
  checkpointInBackground?: boolean;
  /** Refuses to open a file another gateway holds, and holds it until close (the gateway does; tools that read need not). */
  exclusive?: boolean;
  /** An fsync per commit (SQLite `synchronous = FULL`), for where power loss matters more than throughput. */
  syncFull?: boolean;
};

/** SQLite's default: an inline checkpoint once the WAL holds this many pages. */
const INLINE_CHECKPOINT_PAGES = 1000;
/** With background checkpoints, inline ones remain only as a safety net, should the thread fall far behind. */
const SAFETY_CHECKPOINT_PAGES = 10_000;

export { SCHEMA_VERSION } from './sqlite-migrations.ts';

const SYNCHRONOUS_NAMES = ['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const;

/** Opens (creating and migrating when needed) the gateway database at `file`; `:memory:` works for throwaway use. */
export function openSqliteStore(file: string, opts: SqliteOptions = {}): SqliteStore {
  const onDisk = file !== ':memory:';
  const lock = opts.exclusive && onDisk ? lockDatabase(file) : undefined;
  const db = openCheckedDatabase(file, opts.syncFull === true, lock);
  const q = prepareStatements(db);
  const search = prepareSearch(db);
  const latestPrivileged = prepareLatestPrivileged(db);
  const pendingTallies = prepareSqlitePendingTallies(db);
  // Only with the file held: then no other process writes it (known-records.ts).
  const known = lock ? new KnownRecords() : null;
  const index = new QuestionIndex(db);
  /** A question's row and its search row in one transaction (the caller's, or one of their own). */
  const questionWrite = (write: () => void) => (db.inTransaction ? write() : store.transaction(write));
  let checkpointer: Checkpointer | undefined;
  const synchronousNow = () => SYNCHRONOUS_NAMES[db.pragma('synchronous', { simple: true }) as number] ?? 'FULL';
  if (opts.checkpointInBackground && file !== ':memory:') {
    db.pragma(`wal_autocheckpoint = ${SAFETY_CHECKPOINT_PAGES}`);
    checkpointer = startCheckpointer(file, synchronousNow(), () => {
      checkpointer = undefined;
      if (db.open) db.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_PAGES}`);
    });
  }

  // Read only outside a transaction: inside a group, latestSeq may show writes not committed yet.
  const acked = onDisk ? keepAckedSeq(file, () => (db.open && !db.inTransaction ? store.latestSeq() : null)) : undefined;
  const store: SyncSqliteStore = {
    settings() {
      const journalMode = String(db.pragma('journal_mode', { simple: true })).toUpperCase();
      return { journalMode, synchronous: synchronousNow(), checkpoints: checkpointer ? 'background' : 'inline' };
    },
    holdCheckpoints: async () => checkpointer?.hold(),
    resumeCheckpoints: () => checkpointer?.resume(),

    ...sqliteTransactions(db, known, index),

    appendEvent(e, payloadJson) {
      const info = q.eventInsert.run(e.event, payloadJson ?? toJson(e.payload), toJson(e.audience), e.atMs);
      return Number(info.lastInsertRowid);
    },
    eventsAfter(cursor, limit) {
      return q.eventsAfter.all(cursor, Math.max(0, Math.trunc(limit))).map(toEvent);
    },
    oldestEventSeq() {
      const oldest = q.eventOldest.get()?.seq ?? null;
      if (oldest !== null) return oldest;
      // Everything pruned: the next seq is the oldest that can still come, so no pruned cursor looks resumable.
      const latest = store.latestSeq();
      return latest === 0 ? 0 : latest + 1;
    },
    latestSeq() {
      return q.eventLatest.get()?.seq ?? 0;
    },
    pruneEvents(beforeMs, keepAtLeast) {
      return store.transaction(() => {
        const keep = Math.max(0, Math.trunc(keepAtLeast));
        let below = Number.POSITIVE_INFINITY;
        if (keep > 0) {
          const nth = q.eventNthNewest.get(keep - 1);
          if (!nth) return 0;
          below = nth.seq;
        }
        // Drop only a prefix, so the kept events have no holes even if clocks stepped back.
        const firstRecent = q.eventFirstAtOrAfter.get(beforeMs);
        if (firstRecent) below = Math.min(below, firstRecent.seq);
        if (below === Number.POSITIVE_INFINITY) below = store.latestSeq() + 1;
        return q.eventsDropBelow.run(below).changes;
      });
    },

    createSession(row, idem) {
      store.transaction(() => {
        q.sessionInsert.run(shapeSessionRow(row));
        if (idem) q.sessionKeyInsert.run(idem.identity, idem.key, row.key);
      });
    },
    getSession(key) {
      const row = known?.sessions.get(key);
      if (row) return { ...row, pendingQuestions: q.sessionPending.get(key)!.n };
      const r = q.sessionGet.get(key);
      if (!r) return undefined;
      const session = toSession(r);
      known?.sessions.set(key, sessionRowOf(session));
      return session;
    },
    sessionByIdempotencyKey(identity, key) {
      const r = q.sessionByKey.get(identity, key);
      return r ? toSession(r) : undefined;
    },
    renameSession(key, title) {
      known?.sessions.forget(key);
      if (q.sessionRename.run({ key, title }).changes === 0) throw missingRow('session', key);
    },
    listSessions() {
      return q.sessionList.all().map(toSession);
    },
    touchSession(key, atMs) {
      known?.sessions.forget(key);
      if (q.sessionTouch.run({ key, atMs }).changes === 0) throw missingRow('session', key);
    },
    latestPrivilegedReplies(filter) {
      return latestPrivileged(filter);
    },

    insertMessage(msg) {
      const m = shapeMessage(msg);
      q.messageInsert.run({
        ...m,
        runId: m.runId ?? null,
        replyTo: m.replyTo ? toJson(m.replyTo) : null,
      });
    },
    updateMessageText(id, text) {
      if (q.messageText.run(text, id).changes === 0) throw missingRow('message', id);
    },
    getMessage(id) {
      const r = q.messageGet.get(id);
      return r ? toMessage(r) : undefined;
    },
    history(sessionKey, limit, before) {
      const take = Math.max(0, Math.trunc(limit));
      let rows: MessageDbRow[];
      if (before === undefined) {
        rows = q.historyNewest.all(sessionKey, take + 1);
      } else {
        const at = q.messagePosition.get(before, sessionKey);
        // A cursor from another session or an unknown id pages nothing rather than restarting from the newest.
        if (!at) return { messages: [], hasMore: false };
        rows = q.historyBefore.all(sessionKey, at.seq, at.n, take + 1);
      }
      const hasMore = rows.length > take;
      return { messages: rows.slice(0, take).reverse().map(toMessage), hasMore };
    },
    getIdempotent(identity, key) {
      const r = q.idempotentGet.get(identity, key);
      return r ? { messageId: r.message_id, seq: r.seq } : undefined;
    },
    putIdempotent(identity, key, result: IdempotentResult, atMs) {
      q.idempotentPut.run(identity, key, result.messageId, result.seq, atMs);
    },

    insertQuestion(question, recordJson) {
      const columns = questionColumns(question, recordJson);
      questionWrite(() => {
        q.questionInsert.run(...columns);
        index.inserted(question.id);
      });
      known?.questions.set(question.id, columns[6]);
    },
    getQuestion(id) {
      const json = known?.questions.get(id);
      if (json !== undefined) return toQuestion({ record: json });
      const r = q.questionGet.get(id);
      if (r) known?.questions.set(id, r.record);
      return r ? toQuestion(r) : undefined;
    },
    updateQuestion(question) {
      const [id, ...set] = questionColumns(question);
      questionWrite(() => {
        if (q.questionUpdate.run(...set, id).changes === 0) throw missingRow('question', question.id);
        index.updated(id);
      });
      known?.questions.set(id, set[5]);
    },
    listQuestions(filter: { sessionKey?: string; status?: QuestionStatus }) {
      const { sessionKey, status } = filter;
      let rows: { record: string }[];
      if (status === 'pending') rows = sessionKey !== undefined ? q.questionsPendingInSession.all(sessionKey) : q.questionsPending.all();
      else if (sessionKey !== undefined && status !== undefined) rows = q.questionsBySessionAndStatus.all(sessionKey, status);
      else if (sessionKey !== undefined) rows = q.questionsBySession.all(sessionKey);
      else if (status !== undefined) rows = q.questionsByStatus.all(status);
      else rows = q.questionsAll.all();
      return rows.map(toQuestion);
    },
    pendingTallies(sessionKey) {
      return pendingTallies(sessionKey);
    },
    countPendingAskedBy(askedBy) {
      return q.questionsPendingAskedBy.get(askedBy)?.n ?? 0;
    },
    dueQuestions(nowMs) {
      return q.questionsDue.all(nowMs).map(toQuestion);
    },
    nextExpiryMs() {
      return q.questionNextExpiry.get()?.at ?? null;
    },

    insertRun(run) {
      q.runInsert.run({ ...runColumns(run), recovery: run.recovery ? 1 : 0 });
    },
    getRun(runId) {
      const r = q.runGet.get(runId);
      return r ? toRun(r) : undefined;
    },
    updateRun(run) {
      if (q.runUpdate.run({ ...runColumns(run), recovery: run.recovery ? 1 : 0 }).changes === 0) throw missingRow('run', run.runId);
    },
    activeRuns(sessionKey?: string | null) {
      const rows = sessionKey === undefined ? q.runsActive.all() : q.runsActiveIn.all(sessionKey);
      return rows.map(toRun);
    },

    search(scope) {
      // The questions written in the open transaction are found, as the table holds them.
      index.write();
      return search(scope);
    },
    ...sqliteSecretMethods(db),
    ...sqlitePushMethods(db),
    ...sqliteGrantMethods(db),
    ...sqliteAuditMethods(db),
    ...sqliteRouteMethods(db),

    getMeta(key) {
      return q.metaGet.get(key)?.value;
    },
    setMeta(key, value) {
      q.metaSet.run(key, value);
    },

    close() {
      if (!db.open) return;
      acked?.stop();
      checkpointer?.stop();
      checkpointer = undefined;
      db.pragma('optimize');
      db.close();
      lock?.release();
    },
  };
  return asyncStore(store, ['settings', 'holdCheckpoints', 'resumeCheckpoints']);
}
