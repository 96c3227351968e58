import type { PoolClient } from 'pg';
import type { Postgres } from './pool.ts';

/**
 * Schema steps, applied in order; `askdock_schema.version` holds how many ran. Append new steps, never edit old ones.
 * JSON is kept as text so a record reads back exactly as written (jsonb would reorder keys and fold duplicates).
 * `askdock_seq` is the one counter every gateway takes `seq` from: a transaction locks its row only as it commits (it
 * takes its numbers then, transactions.ts), so seqs become visible in the order they were handed out and a reader never
 * skips one (R2, D2).
 */
export const MIGRATIONS: readonly string[] = [
  `
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
  // D3: duties held by one gateway at a time, and which asking clients are connected to which gateway (Q7).
  `
  CREATE TABLE leases (name text PRIMARY KEY, holder text NOT NULL, until_ms bigint NOT NULL);
  CREATE TABLE gateways (id text PRIMARY KEY, alive_until_ms bigint NOT NULL);
  CREATE TABLE presence (
    identity text NOT NULL,
    client_id text NOT NULL,
    gateway_id text NOT NULL,
    connections int NOT NULL,
    left_at_ms bigint,
    PRIMARY KEY (identity, client_id, gateway_id)
  );
  `,
  // RU1 subagent runs, RU2 superseded runs, K1 secret requests and encrypted secrets (ciphertext only).
  `
  ALTER TABLE runs ADD COLUMN parent_run_id text;
  ALTER TABLE runs ADD COLUMN superseded_at_ms bigint;
  CREATE TABLE secret_requests (
    n bigserial PRIMARY KEY,
    id text NOT NULL UNIQUE,
    status text NOT NULL,
    created_at_ms bigint NOT NULL,
    record text NOT NULL
  );
  CREATE INDEX secret_requests_by_status ON secret_requests (status, created_at_ms, n);
  CREATE TABLE secrets (
    name text PRIMARY KEY,
    ciphertext text NOT NULL,
    stored_by text NOT NULL,
    request_id text,
    stored_at_ms bigint NOT NULL
  );
  `,
  // A6: the agent a session is bound to (NULL for sessions made before binding), and sessions.create's idempotency keys.
  `
  ALTER TABLE sessions ADD COLUMN agent_id text;
  CREATE TABLE session_keys (
    identity text NOT NULL,
    key text NOT NULL,
    session_key text NOT NULL,
    PRIMARY KEY (identity, key)
  );
  `,
  // S5: who asked, as a column, so the per-asker pending limit is an index count instead of a read of every pending record.
  `
  ALTER TABLE questions ADD COLUMN asked_by text;
  UPDATE questions SET asked_by = record::json->>'askedBy';
  CREATE INDEX questions_pending_by_asker ON questions (asked_by) WHERE status = 'pending' AND retired_at_ms IS NULL;
  `,
  // C4: the message a run streams into, so a stream goes on after a restart or on another gateway.
  `
  ALTER TABLE runs ADD COLUMN streaming_message_id text;
  `,
  // U19: full-text indexes of session titles, messages and question records (each header and question, then the answers).
  `
  CREATE FUNCTION askdock_question_text(record text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
    SELECT COALESCE((SELECT string_agg((q->>'header') || ' ' || (q->>'question'), ' ') FROM json_array_elements(record::json->'questions') q), '')
      || COALESCE(' ' || (SELECT string_agg(a, ' ')
                          FROM json_each(COALESCE(record::json->'answers', '{}'::json)) e, json_array_elements_text(e.value) a), '')
  $f$;
  CREATE INDEX sessions_search ON sessions USING gin (to_tsvector('simple', title));
  CREATE INDEX messages_search ON messages USING gin (to_tsvector('simple', text));
  CREATE INDEX questions_search ON questions USING gin (to_tsvector('simple', askdock_question_text(record)));
  `,
  // U17: the gateway's VAPID key pair and each browser's push subscription.
  `
  CREATE TABLE push_keys (
    id int PRIMARY KEY CHECK (id = 1),
    public_key text NOT NULL,
    private_key text NOT NULL,
    created_at_ms bigint NOT NULL
  );
  CREATE TABLE push_subscriptions (
    n bigserial PRIMARY KEY,
    endpoint text NOT NULL UNIQUE,
    identity text NOT NULL,
    p256dh text NOT NULL,
    auth text NOT NULL,
    created_at_ms bigint NOT NULL
  );
  CREATE INDEX push_subscriptions_by_identity ON push_subscriptions (identity, n);
  `,
  // D2: a chat event names its message, whose seq (given at commit with the event's) it is read with.
  `
  ALTER TABLE events ADD COLUMN message_id text;
  `,
  // D5: one row per connection, written by the synchronous commit that takes a numbering commit to disk (transactions.ts).
  `
  CREATE TABLE askdock_flush (pid int PRIMARY KEY, n bigint NOT NULL);
  `,
  // K1: a secret belongs to the agent identity that asked for it; one stored before learns it from its request.
  `
  ALTER TABLE secrets ADD COLUMN owner text;
  UPDATE secrets s SET owner = COALESCE((SELECT r.record::jsonb ->> 'askedBy' FROM secret_requests r WHERE r.id = s.request_id), '');
  ALTER TABLE secrets ALTER COLUMN owner SET NOT NULL;
  ALTER TABLE secrets DROP CONSTRAINT secrets_pkey;
  ALTER TABLE secrets ADD PRIMARY KEY (owner, name);
  `,
  // U17: the token a subscription was made with (a hash of its hash); a row from before has none and ends.
  `
  ALTER TABLE push_subscriptions ADD COLUMN token_hash text NOT NULL DEFAULT '';
  `,
  // U19/A3: each search index also holds who may see a row (scope words beside its words: search.ts), so a search never
  // reads a row hidden from its identity. The scope words start with '#', which no text's words do.
  `
  ALTER TABLE messages ADD COLUMN privileged_asker text;
  UPDATE messages m SET privileged_asker = q.asked_by FROM questions q
    WHERE m.reply_to IS NOT NULL AND q.id = (m.reply_to::json->>'questionId') AND (q.record::json->>'privileged') = 'true';
  CREATE INDEX messages_privileged ON messages (privileged_asker, session_key, created_at_ms) WHERE privileged_asker IS NOT NULL;
  CREATE FUNCTION askdock_session_vector(title text, key text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
    SELECT to_tsvector('simple', title) || array_to_tsvector(ARRAY['#s' || md5(key)])
  $f$;
  CREATE FUNCTION askdock_message_vector(text text, session_key text, privileged_asker text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
    SELECT to_tsvector('simple', text)
      || array_to_tsvector(ARRAY['#s' || md5(session_key), CASE WHEN privileged_asker IS NULL THEN '#public' ELSE '#p' || md5(privileged_asker) END])
  $f$;
  CREATE FUNCTION askdock_question_vector(record text, session_key text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
    SELECT to_tsvector('simple', askdock_question_text(record))
      || array_to_tsvector(array_remove(ARRAY[
           CASE WHEN session_key IS NULL THEN '#nosession' ELSE '#insession' END,
           '#s' || md5(session_key),
           '#a' || md5(COALESCE(record::json->>'askedBy', '')),
           CASE WHEN (record::json->>'privileged') = 'true' THEN '#privileged' ELSE '#open' END], NULL))
  $f$;
  DROP INDEX sessions_search;
  DROP INDEX messages_search;
  DROP INDEX questions_search;
  CREATE INDEX sessions_search ON sessions USING gin (askdock_session_vector(title, key));
  CREATE INDEX messages_search ON messages USING gin (askdock_message_vector(text, session_key, privileged_asker));
  CREATE INDEX questions_search ON questions USING gin (askdock_question_vector(record, session_key));
  `,
  // G5: grants ("Always allow…"), each with its scope's binding in its record; live ones are listed by expiry.
  `
  CREATE TABLE policy_grants (
    id text PRIMARY KEY,
    created_at_ms bigint NOT NULL,
    expires_at_ms bigint NOT NULL,
    revoked_at_ms bigint,
    record text NOT NULL
  );
  CREATE INDEX policy_grants_live ON policy_grants (expires_at_ms) WHERE revoked_at_ms IS NULL;
  `,
  // L1/L2: the audit log (appended only), the answers' text and salt kept apart from it, and the signed checkpoints.
  `
  CREATE TABLE audit_entries (idx bigint PRIMARY KEY, line text NOT NULL);
  CREATE TABLE audit_answers (idx bigint PRIMARY KEY, question_id text NOT NULL, salt bytea NOT NULL, answers text NOT NULL);
  CREATE TABLE audit_checkpoints (size bigint PRIMARY KEY, note text NOT NULL, signed_at_ms bigint NOT NULL);
  `,
  // E2/E11: pending questions by their next escalation step's deadline (routing.ts reads it by the same function).
  `
  CREATE FUNCTION askdock_route_due(record text) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
    SELECT (record::json #>> '{route,nextAtMs}')::double precision
  $f$;
  CREATE INDEX questions_route_due ON questions (askdock_route_due(record), n)
    WHERE status = 'pending' AND askdock_route_due(record) IS NOT NULL;
  `,
  // U19/D5: a question's search vector as a column written with the row from text and scope words the gateway computes
  // (questions.ts), instead of an index expression that parses the record's JSON on every write.
  `
  ALTER TABLE questions ADD COLUMN search tsvector;
  UPDATE questions SET search = askdock_question_vector(record, session_key);
  DROP INDEX questions_search;
  CREATE INDEX questions_search ON questions USING gin (search);
  `,
  // L2/L7: checkpoints in the order they were signed (a serial), so one signed again at a size already signed (after an
  // acknowledgement) is kept and is the latest; the same note twice is still kept once. Those before keep their order.
  `
  CREATE TABLE audit_checkpoints_signed (
    serial bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    size bigint NOT NULL,
    note text NOT NULL,
    signed_at_ms bigint NOT NULL,
    UNIQUE (size, note)
  );
  INSERT INTO audit_checkpoints_signed (size, note, signed_at_ms) SELECT size, note, signed_at_ms FROM audit_checkpoints ORDER BY size;
  DROP TABLE audit_checkpoints;
  ALTER TABLE audit_checkpoints_signed RENAME TO audit_checkpoints;
  `,
];

/** Applies what is missing, one step per transaction, under a lock so two gateways starting together migrate once. */
export async function migrate(pg: Postgres, where: string): Promise<void> {
  // Session-level, on a connection of its own, so CREATE TABLE IF NOT EXISTS of two gateways starting together cannot race either.
  const client = await pg.connect();
  let broken = false;
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext(current_schema() || '.askdock_migrate'))`);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS askdock_schema (id int PRIMARY KEY CHECK (id = 1), version int NOT NULL)`);
      await client.query(`INSERT INTO askdock_schema (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING`);
      await applySteps(client, where);
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtext(current_schema() || '.askdock_migrate'))`);
    }
  } catch (err) {
    broken = true;
    throw err;
  } finally {
    client.release(broken);
  }
}

async function applySteps(client: PoolClient, where: string): Promise<void> {
  for (;;) {
    await client.query('BEGIN');
    try {
      const version = Number((await client.query(`SELECT version FROM askdock_schema WHERE id = 1 FOR UPDATE`)).rows[0].version);
      if (version > MIGRATIONS.length)
        throw new Error(
          `${where} has schema version ${version}, newer than this askdock knows (${MIGRATIONS.length}); upgrade askdock or use another database`,
        );
      if (version === MIGRATIONS.length) {
        await client.query('COMMIT');
        return;
      }
      await client.query(MIGRATIONS[version]);
      await client.query(`UPDATE askdock_schema SET version = $1 WHERE id = 1`, [version + 1]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    }
  }
}
