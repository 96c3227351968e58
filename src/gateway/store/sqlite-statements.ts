import type Database from 'better-sqlite3';
import { OPEN_QUESTION, SESSION_COLUMNS, type EventDbRow, type QuestionColumns, type QuestionColumnsAfterId, type MessageDbRow, type RunDbRow, type SessionDbRow } from './rows.ts';
import { PRIVILEGED_ASKER } from './sqlite-search-scope.ts';

type Db = Database.Database;

/** Every statement the SQLite store runs, prepared once per connection. */
export function prepareStatements(db: Db) {
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
    // The count SESSION_COLUMNS makes, alone (for a session row already known).
    sessionPending: db.prepare<[string], { n: number }>(
      `SELECT COUNT(*) AS n FROM questions WHERE session_key = ? AND ${OPEN_QUESTION}`,
    ),
    sessionList: db.prepare<[], SessionDbRow>(
      `SELECT ${SESSION_COLUMNS} FROM sessions s ORDER BY COALESCE(s.last_message_at_ms, s.created_at_ms) DESC, s.n DESC`,
    ),
    // Never moves back, so a late write with an older clock cannot reorder the session list.
    sessionTouch: db.prepare(
      `UPDATE sessions SET last_message_at_ms = MAX(COALESCE(last_message_at_ms, @atMs), @atMs) WHERE key = @key`,
    ),

    messageInsert: db.prepare(
      `INSERT INTO messages (id, session_key, seq, role, text, author_id, run_id, reply_to, created_at_ms, privileged_asker)
       VALUES (@id, @sessionKey, @seq, @role, @text, @authorId, @runId, @replyTo, @createdAtMs, ${PRIVILEGED_ASKER('@replyTo')})`,
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

    // Positional, in the order of questionColumns (rows.ts); the update takes the id last.
    questionInsert: db.prepare<QuestionColumns>(
      `INSERT INTO questions (id, session_key, status, expires_at_ms, created_at_ms, retired_at_ms, record, asked_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    questionUpdate: db.prepare<[...QuestionColumnsAfterId, string]>(
      `UPDATE questions SET session_key = ?, status = ?, expires_at_ms = ?, created_at_ms = ?, retired_at_ms = ?, record = ?,
       asked_by = ? WHERE id = ?`,
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
    questionsPendingAskedBy: db.prepare<[string], { n: number }>(
      `SELECT COUNT(*) AS n FROM questions WHERE asked_by = ? AND ${OPEN_QUESTION}`,
    ),
    questionsDue: db.prepare<[number], { record: string }>(
      `SELECT record FROM questions WHERE status = 'pending' AND expires_at_ms <= ? ORDER BY expires_at_ms, n`,
    ),
    questionNextExpiry: db.prepare<[], { at: number | null }>(
      `SELECT MIN(expires_at_ms) AS at FROM questions WHERE status = 'pending' AND expires_at_ms IS NOT NULL`,
    ),

    runInsert: db.prepare(
      `INSERT INTO runs (run_id, session_key, agent_id, recovery, started_at_ms, ended_at_ms, stop_reason, phase, trigger_message_id,
         parent_run_id, superseded_at_ms, streaming_message_id)
       VALUES (@runId, @sessionKey, @agentId, @recovery, @startedAtMs, @endedAtMs, @stopReason, @phase, @triggerMessageId,
         @parentRunId, @supersededAtMs, @streamingMessageId)`,
    ),
    runUpdate: db.prepare(
      `UPDATE runs SET session_key = @sessionKey, agent_id = @agentId, recovery = @recovery, started_at_ms = @startedAtMs,
       ended_at_ms = @endedAtMs, stop_reason = @stopReason, phase = @phase, trigger_message_id = @triggerMessageId,
       parent_run_id = @parentRunId, superseded_at_ms = @supersededAtMs, streaming_message_id = @streamingMessageId
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

    metaGet: db.prepare<[string], { value: string }>(`SELECT value FROM meta WHERE key = ?`),
    metaSet: db.prepare(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
