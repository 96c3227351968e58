import type { MigrationStep } from '../../migration-step.ts';

// The first tables (sessions, messages, questions, runs, events) and the columns added to them since.

/**
 * `askdock_seq` is the one counter every gateway takes `seq` from: a transaction locks its row only as it commits (it
 * takes its numbers then, ../transactions.ts), so seqs become visible in the order they were handed out and a reader never
 * skips one (R2, D2).
 */
export const coreTables: MigrationStep = {
  id: 'core-tables',
  sql: `
  CREATE TABLE askdock_seq (id int PRIMARY KEY CHECK (id = 1), value bigint NOT NULL);
  INSERT INTO askdock_seq (id, value) VALUES (1, 0);
  CREATE TABLE sessions (
    n bigserial PRIMARY KEY,
    key text NOT NULL UNIQUE,
    title text NOT NULL,
    created_by text NOT NULL,
    created_at_ms bigint NOT NULL,
    last_message_at_ms bigint
  );
  CREATE TABLE messages (
    n bigserial PRIMARY KEY,
    id text NOT NULL UNIQUE,
    session_key text NOT NULL,
    seq bigint NOT NULL,
    role text NOT NULL,
    text text NOT NULL,
    author_id text NOT NULL,
    run_id text,
    reply_to text,
    created_at_ms bigint NOT NULL
  );
  CREATE INDEX messages_by_session ON messages (session_key, seq, n);
  CREATE TABLE idempotency (
    identity text NOT NULL,
    key text NOT NULL,
    message_id text NOT NULL,
    seq bigint NOT NULL,
    at_ms bigint NOT NULL,
    PRIMARY KEY (identity, key)
  );
  CREATE TABLE questions (
    n bigserial PRIMARY KEY,
    id text NOT NULL UNIQUE,
    session_key text,
    status text NOT NULL,
    expires_at_ms bigint,
    created_at_ms bigint NOT NULL,
    retired_at_ms bigint,
    record text NOT NULL
  );
  CREATE INDEX questions_by_session ON questions (session_key, status);
  CREATE INDEX questions_by_created ON questions (created_at_ms, n);
  CREATE INDEX questions_pending ON questions (created_at_ms, n) WHERE status = 'pending';
  CREATE INDEX questions_pending_expiry ON questions (expires_at_ms) WHERE status = 'pending';
  CREATE TABLE runs (
    n bigserial PRIMARY KEY,
    run_id text NOT NULL UNIQUE,
    session_key text,
    agent_id text NOT NULL,
    recovery boolean NOT NULL,
    started_at_ms bigint NOT NULL,
    ended_at_ms bigint,
    stop_reason text,
    phase text,
    trigger_message_id text
  );
  CREATE INDEX runs_active ON runs (session_key) WHERE ended_at_ms IS NULL;
  CREATE TABLE events (
    seq bigint PRIMARY KEY,
    event text NOT NULL,
    payload text NOT NULL,
    audience text NOT NULL,
    at_ms bigint NOT NULL
  );
  CREATE INDEX events_by_time ON events (at_ms);
  CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
  `,
};

// A6: the agent a session is bound to (NULL for sessions made before binding), and sessions.create's idempotency keys.
export const sessionAgentBinding: MigrationStep = {
  id: 'sessions-agent-binding',
  sql: `
  ALTER TABLE sessions ADD COLUMN agent_id text;
  CREATE TABLE session_keys (
    identity text NOT NULL,
    key text NOT NULL,
    session_key text NOT NULL,
    PRIMARY KEY (identity, key)
  );
  `,
};

// S5: who asked, as a column, so the per-asker pending limit is an index count instead of a read of every pending record.
export const questionAskedBy: MigrationStep = {
  id: 'questions-asked-by',
  sql: `
  ALTER TABLE questions ADD COLUMN asked_by text;
  UPDATE questions SET asked_by = record::json->>'askedBy';
  CREATE INDEX questions_pending_by_asker ON questions (asked_by) WHERE status = 'pending' AND retired_at_ms IS NULL;
  `,
};

// C4: the message a run streams into, so a stream goes on after a restart or on another gateway.
export const runStreamingMessage: MigrationStep = {
  id: 'runs-streaming-message',
  sql: `
  ALTER TABLE runs ADD COLUMN streaming_message_id text;
  `,
};

// D2: a chat event names its message, whose seq (given at commit with the event's) it is read with.
export const eventMessageId: MigrationStep = {
  id: 'events-message-id',
  sql: `
  ALTER TABLE events ADD COLUMN message_id text;
  `,
};
