import type Database from 'better-sqlite3';
import { scopedSearchIndexes } from './sqlite-search-scope.ts';

type Db = Database.Database;

/** FTS5 word rules for every index: Unicode words, accents folded, so "cafe" finds "café"; short prefixes indexed, so a two- or three-letter prefix is one lookup. */
const TOKENIZE = `tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'`;
/** A question record's searchable text: each header and question, then the answers (store/search.ts says the same in JS). */
export const questionText = (record: string) => `
  (SELECT group_concat(json_extract(value, '$.header') || ' ' || json_extract(value, '$.question'), ' ') FROM json_each(${record}, '$.questions'))
  || COALESCE(' ' || (SELECT group_concat(value, ' ') FROM json_tree(${record}, '$.answers') WHERE type = 'text'), '')`;

/** An FTS5 index over one column of a table, kept by triggers (external content: the text is not stored twice). */
const contentIndex = (table: string, column: string) => `
  CREATE VIRTUAL TABLE ${table}_fts USING fts5(${column}, content = '${table}', content_rowid = 'n', ${TOKENIZE});
  CREATE TRIGGER ${table}_fts_insert AFTER INSERT ON ${table} BEGIN
    INSERT INTO ${table}_fts (rowid, ${column}) VALUES (new.n, new.${column});
  END;
  CREATE TRIGGER ${table}_fts_update AFTER UPDATE OF ${column} ON ${table} BEGIN
    INSERT INTO ${table}_fts (${table}_fts, rowid, ${column}) VALUES ('delete', old.n, old.${column});
    INSERT INTO ${table}_fts (rowid, ${column}) VALUES (new.n, new.${column});
  END;
  CREATE TRIGGER ${table}_fts_delete AFTER DELETE ON ${table} BEGIN
    INSERT INTO ${table}_fts (${table}_fts, rowid, ${column}) VALUES ('delete', old.n, old.${column});
  END;
  INSERT INTO ${table}_fts (${table}_fts) VALUES ('rebuild');
`;

const SEARCH_INDEXES = `
  ${contentIndex('messages', 'text')}
  ${contentIndex('sessions', 'title')}
  CREATE VIRTUAL TABLE questions_fts USING fts5(body, ${TOKENIZE});
  CREATE TRIGGER questions_fts_insert AFTER INSERT ON questions BEGIN
    INSERT INTO questions_fts (rowid, body) VALUES (new.n, ${questionText('new.record')});
  END;
  CREATE TRIGGER questions_fts_update AFTER UPDATE OF record ON questions BEGIN
    DELETE FROM questions_fts WHERE rowid = old.n;
    INSERT INTO questions_fts (rowid, body) VALUES (new.n, ${questionText('new.record')});
  END;
  CREATE TRIGGER questions_fts_delete AFTER DELETE ON questions BEGIN
    DELETE FROM questions_fts WHERE rowid = old.n;
  END;
  INSERT INTO questions_fts (rowid, body) SELECT n, ${questionText('record')} FROM questions;
`;

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
  // S5: who asked, as a column, so the per-asker pending limit is an index count instead of a read of every pending record.
  (db) =>
    db.exec(`
      ALTER TABLE questions ADD COLUMN asked_by TEXT;
      UPDATE questions SET asked_by = json_extract(record, '$.askedBy');
      CREATE INDEX questions_pending_by_asker ON questions (asked_by) WHERE status = 'pending' AND retired_at_ms IS NULL;
    `),
  // C4: the message a run streams into, so a stream goes on after a restart.
  (db) => db.exec(`ALTER TABLE runs ADD COLUMN streaming_message_id TEXT;`),
  // U19: full-text indexes (FTS5) of session titles, messages and question records, kept by triggers in the same transaction.
  (db) => db.exec(SEARCH_INDEXES),
  // U17: the gateway's VAPID key pair and each browser's push subscription.
  (db) =>
    db.exec(`
      CREATE TABLE push_keys (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        public_key TEXT NOT NULL,
        private_key TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL
      );
      CREATE TABLE push_subscriptions (
        n INTEGER PRIMARY KEY AUTOINCREMENT,
        endpoint TEXT NOT NULL UNIQUE,
        identity TEXT NOT NULL,
        p256dh TEXT NOT NULL,
        auth TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL
      );
      CREATE INDEX push_subscriptions_by_identity ON push_subscriptions (identity, n);
    `),
  // K1: a secret belongs to the agent identity that asked for it; one stored before learns it from its request.
  (db) =>
    db.exec(`
      CREATE TABLE secrets_owned (
        owner TEXT NOT NULL,
        name TEXT NOT NULL,
        ciphertext TEXT NOT NULL,
        stored_by TEXT NOT NULL,
        request_id TEXT,
        stored_at_ms INTEGER NOT NULL,
        PRIMARY KEY (owner, name)
      ) WITHOUT ROWID;
      INSERT INTO secrets_owned (owner, name, ciphertext, stored_by, request_id, stored_at_ms)
        SELECT COALESCE((SELECT json_extract(r.record, '$.askedBy') FROM secret_requests r WHERE r.id = s.request_id), ''),
          s.name, s.ciphertext, s.stored_by, s.request_id, s.stored_at_ms
        FROM secrets s;
      DROP TABLE secrets;
      ALTER TABLE secrets_owned RENAME TO secrets;
    `),
  // U17: the token a subscription was made with (a hash of its hash); a row from before has none and ends.
  (db) => db.exec(`ALTER TABLE push_subscriptions ADD COLUMN token_hash TEXT NOT NULL DEFAULT '';`),
  // U19/A3: each search index also holds who may see a row, so a search never reads one hidden from its identity.
  (db) => db.exec(scopedSearchIndexes(TOKENIZE, questionText)),
  // G5: grants ("Always allow…"), each with its scope's binding in its record; live ones are listed by expiry.
  (db) =>
    db.exec(`
      CREATE TABLE policy_grants (
        id TEXT PRIMARY KEY,
        created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        revoked_at_ms INTEGER,
        record TEXT NOT NULL
      );
      CREATE INDEX policy_grants_live ON policy_grants (expires_at_ms) WHERE revoked_at_ms IS NULL;
    `),
  // L1/L2: the audit log (appended only), the answers' text and salt kept apart from it, and the signed checkpoints.
  (db) =>
    db.exec(`
      CREATE TABLE audit_entries (idx INTEGER PRIMARY KEY, line TEXT NOT NULL);
      CREATE TABLE audit_answers (idx INTEGER PRIMARY KEY, question_id TEXT NOT NULL, salt BLOB NOT NULL, answers TEXT NOT NULL);
      CREATE TABLE audit_checkpoints (size INTEGER PRIMARY KEY, note TEXT NOT NULL, signed_at_ms INTEGER NOT NULL);
    `),
  // E2/E11: pending questions by their next escalation step's deadline (sqlite-routing.ts reads it by the same expression).
  (db) =>
    db.exec(`
      CREATE INDEX questions_route_due ON questions (json_extract(record, '$.route.nextAtMs'), n)
        WHERE status = 'pending' AND json_extract(record, '$.route.nextAtMs') IS NOT NULL;
    `),
  // U19: a question's search row is written by the store once per commit (sqlite-question-index.ts), not by a trigger in
  // each unit; the delete trigger stays.
  (db) => db.exec(`DROP TRIGGER questions_fts_insert; DROP TRIGGER questions_fts_update;`),
  // L2/L7: checkpoints in the order they were signed (a serial), so one signed again at a size already signed (after an
  // acknowledgement) is kept and is the latest; the same note twice is still kept once. Those before keep their order.
  (db) =>
    db.exec(`
      CREATE TABLE audit_checkpoints_signed (
        serial INTEGER PRIMARY KEY,
        size INTEGER NOT NULL,
        note TEXT NOT NULL,
        signed_at_ms INTEGER NOT NULL,
        UNIQUE (size, note)
      );
      INSERT INTO audit_checkpoints_signed (size, note, signed_at_ms) SELECT size, note, signed_at_ms FROM audit_checkpoints ORDER BY size;
      DROP TABLE audit_checkpoints;
      ALTER TABLE audit_checkpoints_signed RENAME TO audit_checkpoints;
    `),
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database at `file` to SCHEMA_VERSION, one step per write transaction; refuses a newer schema. */
export function migrate(db: Db, file: string): void {
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
