import Database from 'better-sqlite3';
import type { ChatMessage, EventName, MessageRole, Phase, QuestionStatus, Session, StopReason } from '../../protocol/index.ts';
import { startCheckpointer, type Checkpointer } from './checkpointer.ts';
import { checkIntegrity, checkNotBehind, damaged, isDamage, keepAckedSeq, lockDatabase } from './sqlite-guard.ts';
import { missingRow, shapeMessage, shapeRun, shapeSessionRow, toJson } from './shape.ts';
import type { EventAudience, IdempotentResult, RunRow, Store, StoredEvent, StoredQuestion, StoredSecretRequest } from './types.ts';

type Db = Database.Database;

/** What the open connection really runs with; `synchronous` is per connection, so only the store can say. */
export type SqliteSettings = { journalMode: string; synchronous: 'OFF' | 'NORMAL' | 'FULL' | 'EXTRA'; checkpoints: 'inline' | 'background' };
export type SqliteStore = Store & { settings(): SqliteSettings };
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

const SYNCHRONOUS_NAMES = ['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const;

/**
 * Schema steps, applied in order; `PRAGMA user_version` holds how many ran. Append new steps, never edit old ones.
 * Tables with an `n INTEGER PRIMARY KEY` use it as a stable insertion order (a plain rowid may change on VACUUM).
 */
const MIGRATIONS: ReadonlyArray<(db: Db) => void> = [
  (db) =>
    db.exec(`
      CREATE TABLE sessions (
        n INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        last_message_at_ms INTEGER
      );
      CREATE TABLE messages (
        n INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        session_key TEXT NOT NULL,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL,
        text TEXT NOT NULL,
        author_id TEXT NOT NULL,
        run_id TEXT,
        reply_to TEXT,
        created_at_ms INTEGER NOT NULL
      );
      CREATE INDEX messages_by_session ON messages (session_key, seq, n);
      CREATE TABLE idempotency (
        identity TEXT NOT NULL,
        key TEXT NOT NULL,
        message_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (identity, key)
      ) WITHOUT ROWID;
      CREATE TABLE questions (
        n INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        session_key TEXT,
        status TEXT NOT NULL,
        expires_at_ms INTEGER,
        created_at_ms INTEGER NOT NULL,
        retired_at_ms INTEGER,
        record TEXT NOT NULL
      );
      CREATE INDEX questions_by_session ON questions (session_key, status);
      CREATE INDEX questions_by_created ON questions (created_at_ms, n);
      CREATE INDEX questions_pending_expiry ON questions (expires_at_ms) WHERE status = 'pending';
      CREATE TABLE runs (
        n INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL UNIQUE,
        session_key TEXT,
        agent_id TEXT NOT NULL,
        recovery INTEGER NOT NULL,
        started_at_ms INTEGER NOT NULL,
        ended_at_ms INTEGER,
        stop_reason TEXT,
        phase TEXT,
        trigger_message_id TEXT
      );
      CREATE INDEX runs_active ON runs (session_key) WHERE ended_at_ms IS NULL;
      CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        event TEXT NOT NULL,
        payload TEXT NOT NULL,
        audience TEXT NOT NULL,
        at_ms INTEGER NOT NULL
      );
      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) WITHOUT ROWID;
    `),
  // Pending questions in creation order without walking every question ever asked (snapshots, run ends, Q11).
  (db) => db.exec(`CREATE INDEX questions_pending ON questions (created_at_ms, n) WHERE status = 'pending';`),
  // A6: the agent a session is bound to (NULL for sessions made before binding), and sessions.create's idempotency keys.
  (db) =>
    db.exec(`
      ALTER TABLE sessions ADD COLUMN agent_id TEXT;
      CREATE TABLE session_keys (
        identity TEXT NOT NULL,
        key TEXT NOT NULL,
        session_key TEXT NOT NULL,
        PRIMARY KEY (identity, key)
      ) WITHOUT ROWID;
    `),
  // RU1 subagent runs, RU2 superseded runs, K1 secret requests and encrypted secrets (ciphertext only).
  (db) =>
    db.exec(`
      ALTER TABLE runs ADD COLUMN parent_run_id TEXT;
      ALTER TABLE runs ADD COLUMN superseded_at_ms INTEGER;
      CREATE TABLE secret_requests (
        n INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        record TEXT NOT NULL
      );
      CREATE INDEX secret_requests_by_status ON secret_requests (status, created_at_ms, n);
      CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        ciphertext TEXT NOT NULL,
        stored_by TEXT NOT NULL,
        request_id TEXT,
        stored_at_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
    `),
];

export const SCHEMA_VERSION = MIGRATIONS.length;

type SessionDbRow = {
  key: string;
  title: string;
  created_by: string;
  agent_id: string | null;
  created_at_ms: number;
  last_message_at_ms: number | null;
  pending: number;
};
type MessageDbRow = {
  id: string;
  session_key: string;
  seq: number;
  role: MessageRole;
  text: string;
  author_id: string;
  run_id: string | null;
  reply_to: string | null;
  created_at_ms: number;
};
type RunDbRow = {
  run_id: string;
  session_key: string | null;
  agent_id: string;
  recovery: number;
  started_at_ms: number;
  ended_at_ms: number | null;
  stop_reason: StopReason | null;
  phase: Phase | null;
  trigger_message_id: string | null;
  parent_run_id: string | null;
  superseded_at_ms: number | null;
};
type SecretDbRow = { name: string; ciphertext: string; stored_by: string; request_id: string | null; stored_at_ms: number };
type EventDbRow = { seq: number; event: EventName; payload: string; audience: string; at_ms: number };

const SESSION_COLUMNS = `s.key, s.title, s.created_by, s.agent_id, s.created_at_ms, s.last_message_at_ms,
  (SELECT COUNT(*) FROM questions q WHERE q.session_key = s.key AND q.status = 'pending' AND q.retired_at_ms IS NULL) AS pending`;

function migrate(db: Db, file: string): void {
  const step = db.transaction((version: number) => {
    // Read again inside the write lock: another process may have migrated meanwhile.
    if ((db.pragma('user_version', { simple: true }) as number) !== version) return;
    MIGRATIONS[version](db);
    db.pragma(`user_version = ${version + 1}`);
  });
  for (;;) {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > MIGRATIONS.length) {
      throw new Error(
        `${file} has schema version ${version}, newer than this askdock knows (${MIGRATIONS.length}); upgrade askdock or use another database file`,
      );
    }
    if (version === MIGRATIONS.length) return;
    step.immediate(version);
  }
}

function prepareStatements(db: Db) {
  return {
    sessionInsert: db.prepare(
      `INSERT INTO sessions (key, title, created_by, agent_id, created_at_ms, last_message_at_ms)
       VALUES (@key, @title, @createdBy, @agentId, @createdAtMs, @lastMessageAtMs)`,
    ),
    sessionKeyInsert: db.prepare(`INSERT INTO session_keys (identity, key, session_key) VALUES (?, ?, ?)`),
    sessionByKey: db.prepare<[string, string], SessionDbRow>(
      `SELECT ${SESSION_COLUMNS} FROM session_keys k JOIN sessions s ON s.key = k.session_key WHERE k.identity = ? AND k.key = ?`,
    ),
    sessionRename: db.prepare(`UPDATE sessions SET title = @title WHERE key = @key`),
    sessionGet: db.prepare<[string], SessionDbRow>(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.key = ?`),
    sessionList: db.prepare<[], SessionDbRow>(
      `SELECT ${SESSION_COLUMNS} FROM sessions s ORDER BY COALESCE(s.last_message_at_ms, s.created_at_ms) DESC, s.n DESC`,
    ),
    // Never moves back, so a late write with an older clock cannot reorder the session list.
    sessionTouch: db.prepare(
      `UPDATE sessions SET last_message_at_ms = MAX(COALESCE(last_message_at_ms, @atMs), @atMs) WHERE key = @key`,
    ),

    messageInsert: db.prepare(
      `INSERT INTO messages (id, session_key, seq, role, text, author_id, run_id, reply_to, created_at_ms)
       VALUES (@id, @sessionKey, @seq, @role, @text, @authorId, @runId, @replyTo, @createdAtMs)`,
    ),
    messageText: db.prepare(`UPDATE messages SET text = ? WHERE id = ?`),
    messageGet: db.prepare<[string], MessageDbRow>(`SELECT * FROM messages WHERE id = ?`),
    messagePosition: db.prepare<[string, string], { seq: number; n: number }>(
      `SELECT seq, n FROM messages WHERE id = ? AND session_key = ?`,
    ),
    historyNewest: db.prepare<[string, number], MessageDbRow>(
      `SELECT * FROM messages WHERE session_key = ? ORDER BY seq DESC, n DESC LIMIT ?`,
    ),
    historyBefore: db.prepare<[string, number, number, number], MessageDbRow>(
      `SELECT * FROM messages WHERE session_key = ? AND (seq, n) < (?, ?) ORDER BY seq DESC, n DESC LIMIT ?`,
    ),

    idempotentGet: db.prepare<[string, string], { message_id: string; seq: number }>(
      `SELECT message_id, seq FROM idempotency WHERE identity = ? AND key = ?`,
    ),
    // The first result wins (C2): a repeat must never overwrite what the first send answered.
    idempotentPut: db.prepare(
      `INSERT INTO idempotency (identity, key, message_id, seq, at_ms) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (identity, key) DO NOTHING`,
    ),

    questionInsert: db.prepare(
      `INSERT INTO questions (id, session_key, status, expires_at_ms, created_at_ms, retired_at_ms, record)
       VALUES (@id, @sessionKey, @status, @expiresAtMs, @createdAtMs, @retiredAtMs, @record)`,
    ),
    questionUpdate: db.prepare(
      `UPDATE questions SET session_key = @sessionKey, status = @status, expires_at_ms = @expiresAtMs,
       created_at_ms = @createdAtMs, retired_at_ms = @retiredAtMs, record = @record WHERE id = @id`,
    ),
    questionGet: db.prepare<[string], { record: string }>(`SELECT record FROM questions WHERE id = ?`),
    questionsAll: db.prepare<[], { record: string }>(`SELECT record FROM questions ORDER BY created_at_ms, n`),
    questionsBySession: db.prepare<[string], { record: string }>(
      `SELECT record FROM questions WHERE session_key = ? ORDER BY created_at_ms, n`,
    ),
    questionsByStatus: db.prepare<[string], { record: string }>(
      `SELECT record FROM questions WHERE status = ? ORDER BY created_at_ms, n`,
    ),
    questionsBySessionAndStatus: db.prepare<[string, string], { record: string }>(
      `SELECT record FROM questions WHERE session_key = ? AND status = ? ORDER BY created_at_ms, n`,
    ),
    // 'pending' is written out, not bound: a bound status makes SQLite re-plan on every run (partial indexes).
    questionsPending: db.prepare<[], { record: string }>(
      `SELECT record FROM questions WHERE status = 'pending' ORDER BY created_at_ms, n`,
    ),
    questionsPendingInSession: db.prepare<[string], { record: string }>(
      `SELECT record FROM questions WHERE session_key = ? AND status = 'pending' ORDER BY created_at_ms, n`,
    ),
    questionsDue: db.prepare<[number], { record: string }>(
      `SELECT record FROM questions WHERE status = 'pending' AND expires_at_ms <= ? ORDER BY expires_at_ms, n`,
    ),
    questionNextExpiry: db.prepare<[], { at: number | null }>(
      `SELECT MIN(expires_at_ms) AS at FROM questions WHERE status = 'pending' AND expires_at_ms IS NOT NULL`,
    ),

    runInsert: db.prepare(
      `INSERT INTO runs (run_id, session_key, agent_id, recovery, started_at_ms, ended_at_ms, stop_reason, phase, trigger_message_id,
         parent_run_id, superseded_at_ms)
       VALUES (@runId, @sessionKey, @agentId, @recovery, @startedAtMs, @endedAtMs, @stopReason, @phase, @triggerMessageId,
         @parentRunId, @supersededAtMs)`,
    ),
    runUpdate: db.prepare(
      `UPDATE runs SET session_key = @sessionKey, agent_id = @agentId, recovery = @recovery, started_at_ms = @startedAtMs,
       ended_at_ms = @endedAtMs, stop_reason = @stopReason, phase = @phase, trigger_message_id = @triggerMessageId,
       parent_run_id = @parentRunId, superseded_at_ms = @supersededAtMs
       WHERE run_id = @runId`,
    ),
    runGet: db.prepare<[string], RunDbRow>(`SELECT * FROM runs WHERE run_id = ?`),
    runsActive: db.prepare<[], RunDbRow>(`SELECT * FROM runs WHERE ended_at_ms IS NULL ORDER BY started_at_ms, n`),
    runsActiveIn: db.prepare<[string | null], RunDbRow>(
      `SELECT * FROM runs WHERE ended_at_ms IS NULL AND session_key IS ? ORDER BY started_at_ms, n`,
    ),

    eventInsert: db.prepare(`INSERT INTO events (event, payload, audience, at_ms) VALUES (?, ?, ?, ?)`),
    eventsAfter: db.prepare<[number, number], EventDbRow>(`SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?`),
    eventOldest: db.prepare<[], { seq: number | null }>(`SELECT MIN(seq) AS seq FROM events`),
    // sqlite_sequence keeps the highest seq ever handed out, also after every event was pruned.
    eventLatest: db.prepare<[], { seq: number }>(`SELECT seq FROM sqlite_sequence WHERE name = 'events'`),
    eventNthNewest: db.prepare<[number], { seq: number }>(`SELECT seq FROM events ORDER BY seq DESC LIMIT 1 OFFSET ?`),
    eventFirstAtOrAfter: db.prepare<[number], { seq: number }>(
      `SELECT seq FROM events WHERE at_ms >= ? ORDER BY seq LIMIT 1`,
    ),
    eventsDropBelow: db.prepare(`DELETE FROM events WHERE seq < ?`),

    secretRequestInsert: db.prepare(
      `INSERT INTO secret_requests (id, status, created_at_ms, record) VALUES (@id, @status, @createdAtMs, @record)`,
    ),
    secretRequestUpdate: db.prepare(`UPDATE secret_requests SET status = @status, record = @record WHERE id = @id`),
    secretRequestGet: db.prepare<[string], { record: string }>(`SELECT record FROM secret_requests WHERE id = ?`),
    secretRequestsAll: db.prepare<[], { record: string }>(`SELECT record FROM secret_requests ORDER BY created_at_ms, n`),
    secretRequestsByStatus: db.prepare<[string], { record: string }>(
      `SELECT record FROM secret_requests WHERE status = ? ORDER BY created_at_ms, n`,
    ),
    secretPut: db.prepare(
      `INSERT INTO secrets (name, ciphertext, stored_by, request_id, stored_at_ms) VALUES (@name, @ciphertext, @storedBy, @requestId, @storedAtMs)
       ON CONFLICT (name) DO UPDATE SET ciphertext = excluded.ciphertext, stored_by = excluded.stored_by,
         request_id = excluded.request_id, stored_at_ms = excluded.stored_at_ms`,
    ),
    secretGet: db.prepare<[string], SecretDbRow>(`SELECT * FROM secrets WHERE name = ?`),

    metaGet: db.prepare<[string], { value: string }>(`SELECT value FROM meta WHERE key = ?`),
    metaSet: db.prepare(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
  };
}

function toSession(r: SessionDbRow): Session {
  const row = shapeSessionRow({
    key: r.key,
    title: r.title,
    createdBy: r.created_by,
    agentId: r.agent_id,
    createdAtMs: r.created_at_ms,
    lastMessageAtMs: r.last_message_at_ms,
  });
  return { ...row, pendingQuestions: r.pending };
}

function toMessage(r: MessageDbRow): ChatMessage {
  return shapeMessage({
    id: r.id,
    sessionKey: r.session_key,
    role: r.role,
    text: r.text,
    authorId: r.author_id,
    runId: r.run_id,
    replyTo: r.reply_to === null ? null : JSON.parse(r.reply_to),
    createdAtMs: r.created_at_ms,
    seq: r.seq,
  });
}

function toRun(r: RunDbRow): RunRow {
  return shapeRun({
    runId: r.run_id,
    sessionKey: r.session_key,
    agentId: r.agent_id,
    recovery: r.recovery === 1,
    startedAtMs: r.started_at_ms,
    endedAtMs: r.ended_at_ms,
    stopReason: r.stop_reason,
    phase: r.phase,
    triggerMessageId: r.trigger_message_id,
    parentRunId: r.parent_run_id,
    supersededAtMs: r.superseded_at_ms,
  });
}

function toEvent(r: EventDbRow): StoredEvent {
  return { seq: r.seq, event: r.event, payload: JSON.parse(r.payload), audience: JSON.parse(r.audience) as EventAudience, atMs: r.at_ms };
}

function toQuestion(r: { record: string }): StoredQuestion {
  return JSON.parse(r.record) as StoredQuestion;
}

function questionParams(q: StoredQuestion) {
  return {
    id: q.id,
    sessionKey: q.sessionKey ?? null,
    status: q.status,
    expiresAtMs: q.expiresAtMs ?? null,
    createdAtMs: q.createdAtMs,
    retiredAtMs: q.retiredAtMs ?? null,
    record: toJson(q),
  };
}

function runParams(run: RunRow) {
  return {
    runId: run.runId,
    sessionKey: run.sessionKey ?? null,
    agentId: run.agentId,
    recovery: run.recovery ? 1 : 0,
    startedAtMs: run.startedAtMs,
    endedAtMs: run.endedAtMs ?? null,
    stopReason: run.stopReason ?? null,
    phase: run.phase ?? null,
    triggerMessageId: run.triggerMessageId ?? null,
    parentRunId: run.parentRunId ?? null,
    supersededAtMs: run.supersededAtMs ?? null,
  };
}

/** Opens (creating and migrating when needed) the gateway database at `file`; `:memory:` works for throwaway use. */
export function openSqliteStore(file: string, opts: SqliteOptions = {}): SqliteStore {
  const onDisk = file !== ':memory:';
  const lock = opts.exclusive && onDisk ? lockDatabase(file) : undefined;
  let db: Db;
  try {
    db = new Database(file);
  } catch (error) {
    lock?.release();
    throw isDamage(error) ? damaged(file, (error as Error).message) : error;
  }
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL keeps every commit across a process kill (R3) and skips the per-commit fsync that FULL adds
    // for power loss; `syncFull` restores it where power loss matters more than throughput.
    db.pragma(`synchronous = ${opts.syncFull ? 'FULL' : 'NORMAL'}`);
    if (onDisk) checkIntegrity(db, file);
    migrate(db, file);
    if (onDisk) checkNotBehind(file, db.prepare<[], { seq: number }>(`SELECT seq FROM sqlite_sequence WHERE name = 'events'`).get()?.seq ?? 0);
  } catch (error) {
    db.close();
    lock?.release();
    throw isDamage(error) ? damaged(file, (error as Error).message) : error;
  }
  const q = prepareStatements(db);
  // IMMEDIATE takes the write lock up front, so two processes never deadlock upgrading a read lock; nested calls become savepoints.
  const tx = db.transaction((fn: () => unknown) => fn());
  const group = { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK') };
  let grouped = false;
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
  const store: SqliteStore = {
    settings() {
      const journalMode = String(db.pragma('journal_mode', { simple: true })).toUpperCase();
      return { journalMode, synchronous: synchronousNow(), checkpoints: checkpointer ? 'background' : 'inline' };
    },

    transaction<T>(fn: () => T): T {
      return tx.immediate(fn) as T;
    },

    beginGroup() {
      if (db.inTransaction) throw new Error('store: beginGroup inside an open transaction');
      group.begin.run();
      grouped = true;
    },
    commitGroup() {
      if (!grouped) throw new Error('store: commitGroup without beginGroup');
      // A failed COMMIT leaves the transaction open: the group stays until rollbackGroup ends it.
      group.commit.run();
      grouped = false;
    },
    rollbackGroup() {
      if (!grouped) throw new Error('store: rollbackGroup without beginGroup');
      grouped = false;
      // SQLite may already have rolled back by itself (e.g. after SQLITE_FULL).
      if (db.inTransaction) group.rollback.run();
    },

    appendEvent(e) {
      const info = q.eventInsert.run(e.event, toJson(e.payload), toJson(e.audience), e.atMs);
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
      const r = q.sessionGet.get(key);
      return r ? toSession(r) : undefined;
    },
    sessionByIdempotencyKey(identity, key) {
      const r = q.sessionByKey.get(identity, key);
      return r ? toSession(r) : undefined;
    },
    renameSession(key, title) {
      if (q.sessionRename.run({ key, title }).changes === 0) throw missingRow('session', key);
    },
    listSessions() {
      return q.sessionList.all().map(toSession);
    },
    touchSession(key, atMs) {
      if (q.sessionTouch.run({ key, atMs }).changes === 0) throw missingRow('session', key);
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

    insertQuestion(question) {
      q.questionInsert.run(questionParams(question));
    },
    getQuestion(id) {
      const r = q.questionGet.get(id);
      return r ? toQuestion(r) : undefined;
    },
    updateQuestion(question) {
      if (q.questionUpdate.run(questionParams(question)).changes === 0) throw missingRow('question', question.id);
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
    dueQuestions(nowMs) {
      return q.questionsDue.all(nowMs).map(toQuestion);
    },
    nextExpiryMs() {
      return q.questionNextExpiry.get()?.at ?? null;
    },

    insertRun(run) {
      q.runInsert.run(runParams(run));
    },
    getRun(runId) {
      const r = q.runGet.get(runId);
      return r ? toRun(r) : undefined;
    },
    updateRun(run) {
      if (q.runUpdate.run(runParams(run)).changes === 0) throw missingRow('run', run.runId);
    },
    activeRuns(sessionKey?: string | null) {
      const rows = sessionKey === undefined ? q.runsActive.all() : q.runsActiveIn.all(sessionKey);
      return rows.map(toRun);
    },

    insertSecretRequest(r) {
      q.secretRequestInsert.run({ id: r.id, status: r.status, createdAtMs: r.createdAtMs, record: toJson(r) });
    },
    getSecretRequest(id) {
      const r = q.secretRequestGet.get(id);
      return r ? (JSON.parse(r.record) as StoredSecretRequest) : undefined;
    },
    updateSecretRequest(r) {
      if (q.secretRequestUpdate.run({ id: r.id, status: r.status, record: toJson(r) }).changes === 0) throw missingRow('secret request', r.id);
    },
    listSecretRequests({ status }) {
      const rows = status === undefined ? q.secretRequestsAll.all() : q.secretRequestsByStatus.all(status);
      return rows.map((r) => JSON.parse(r.record) as StoredSecretRequest);
    },
    putSecret(secret) {
      q.secretPut.run({ ...secret, requestId: secret.requestId ?? null });
    },
    getSecret(name) {
      const r = q.secretGet.get(name);
      if (!r) return undefined;
      return { name: r.name, ciphertext: r.ciphertext, storedBy: r.stored_by, storedAtMs: r.stored_at_ms, ...(r.request_id ? { requestId: r.request_id } : {}) };
    },

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
  return store;
}
