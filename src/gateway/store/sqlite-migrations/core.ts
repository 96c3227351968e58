import type { MigrationStep } from '../migration-step.ts';

// The first tables (sessions, messages, questions, runs, events) and the columns and indexes added to them since.

export const coreTables: MigrationStep = {
  id: 'core-tables',
  sql: `
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
    `,
};

// Pending questions in creation order without walking every question ever asked (snapshots, run ends, Q11).
export const pendingQuestionsIndex: MigrationStep = {
  id: 'questions-pending-index',
  sql: `CREATE INDEX questions_pending ON questions (created_at_ms, n) WHERE status = 'pending';`,
};

// A6: the agent a session is bound to (NULL for sessions made before binding), and sessions.create's idempotency keys.
export const sessionAgentBinding: MigrationStep = {
  id: 'sessions-agent-binding',
  sql: `
      ALTER TABLE sessions ADD COLUMN agent_id TEXT;
      CREATE TABLE session_keys (
        identity TEXT NOT NULL,
        key TEXT NOT NULL,
        session_key TEXT NOT NULL,
        PRIMARY KEY (identity, key)
      ) WITHOUT ROWID;
    `,
};

// S5: who asked, as a column, so the per-asker pending limit is an index count instead of a read of every pending record.
export const questionAskedBy: MigrationStep = {
  id: 'questions-asked-by',
  sql: `
      ALTER TABLE questions ADD COLUMN asked_by TEXT;
      UPDATE questions SET asked_by = json_extract(record, '$.askedBy');
      CREATE INDEX questions_pending_by_asker ON questions (asked_by) WHERE status = 'pending' AND retired_at_ms IS NULL;
    `,
};

// C4: the message a run streams into, so a stream goes on after a restart.
export const runStreamingMessage: MigrationStep = {
  id: 'runs-streaming-message',
  sql: `ALTER TABLE runs ADD COLUMN streaming_message_id TEXT;`,
};
