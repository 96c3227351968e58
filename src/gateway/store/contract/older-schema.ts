import Database from 'better-sqlite3';
import pg from 'pg';
import { expect } from 'vitest';
import { question, run, type Harness } from './contract-fixtures.ts';
import { SCHEMA_VERSION } from '../sqlite.ts';

/**
 * Back to the schema before questions.asked_by, as an earlier release wrote it: that step and every one after it undone
 * (C4's streaming column, U19's search indexes, U17's push tables), so all of them are migrated again.
 */
const UNDO_ASKER_STEPS = `DROP INDEX questions_pending_by_asker; ALTER TABLE questions DROP COLUMN asked_by; ALTER TABLE runs DROP COLUMN streaming_message_id;
  DROP TABLE push_subscriptions; DROP TABLE push_keys;`;
/** K1: secrets as they were before they had an owner, one given to a request and one whose request is gone. */
const OLD_SECRETS = `INSERT INTO secrets (name, ciphertext, stored_by, request_id, stored_at_ms) VALUES
  ('OLD_KEY', 'v1:old', 'op', 'k-old', 1000), ('ORPHAN_KEY', 'v1:orphan', 'op', 'k-gone', 1000);`;
const UNDO_SECRET_OWNER_SQLITE = `DROP TABLE secrets; CREATE TABLE secrets (name TEXT PRIMARY KEY, ciphertext TEXT NOT NULL, stored_by TEXT NOT NULL,
  request_id TEXT, stored_at_ms INTEGER NOT NULL) WITHOUT ROWID; ${OLD_SECRETS}`;
const UNDO_SECRET_OWNER_POSTGRES = `DELETE FROM secrets; ALTER TABLE secrets DROP CONSTRAINT secrets_pkey; ALTER TABLE secrets DROP COLUMN owner;
  ALTER TABLE secrets ADD PRIMARY KEY (name); ${OLD_SECRETS}`;
/** How many schema steps the secret owner's undo undoes (the step before the push token's in both stores). */
const SECRET_OWNER_STEPS = 1;
/** U17: the push token's step, right after the secret owner's in both stores. */
const UNDO_PUSH_TOKEN = `ALTER TABLE push_subscriptions DROP COLUMN token_hash;`;
const PUSH_TOKEN_STEPS = 1;
/** U19/A3: the scoped search indexes' step, after the push token's on SQLite (PostgreSQL counts it in POSTGRES_STEPS_AFTER). */
const SEARCH_SCOPE_STEPS = 1;
const UNDO_SEARCH_SQLITE = ['messages', 'sessions', 'questions']
  .map((t) => `DROP TRIGGER IF EXISTS ${t}_fts_insert; DROP TRIGGER IF EXISTS ${t}_fts_update; DROP TRIGGER ${t}_fts_delete; DROP TABLE ${t}_fts;`)
  .join(' ')
  .concat(' DROP INDEX messages_privileged; ALTER TABLE messages DROP COLUMN privileged_asker;');
const UNDO_SEARCH_POSTGRES = `DROP INDEX sessions_search; DROP INDEX messages_search; DROP INDEX questions_search;
  DROP FUNCTION askdock_session_vector(text, text); DROP FUNCTION askdock_message_vector(text, text, text); DROP FUNCTION askdock_question_vector(text, text);
  ALTER TABLE messages DROP COLUMN privileged_asker; DROP FUNCTION askdock_question_text(text);`;
/** G5: the grants' step, the last in both stores. */
const UNDO_GRANTS = `DROP TABLE policy_grants;`;
const GRANT_STEPS = 1;
const UNDO_AUDIT = `DROP TABLE audit_entries; DROP TABLE audit_answers; DROP TABLE audit_checkpoints;`;
/**
 * The audit tables' step, the checkpoints' serial (L7), whose table UNDO_AUDIT drops, and the acknowledgement's mark by
 * serial (the last step; undoing it needs nothing: it only rewrites a meta key).
 */
const AUDIT_STEPS = 3;
/** On SQLite, one step more: the checkpoints' table rebuilt so their serials are never reused (AUTOINCREMENT). */
const SQLITE_AUDIT_STEPS = AUDIT_STEPS + 1;
// E2/E11: the index of escalation deadlines (one step).
const UNDO_ROUTES_POSTGRES = `DROP INDEX questions_route_due; DROP FUNCTION askdock_route_due(text);`;
const ROUTE_STEPS = 1;
/** U19: the questions' search rows written by the store, not by triggers (SQLite only, the last step; undoing it needs nothing). */
const QUESTION_INDEX_STEPS = 1;
/** U19/D5: a question's search vector as a column (PostgreSQL only, the last step). */
const UNDO_QUESTION_SEARCH_POSTGRES = `DROP INDEX questions_search; ALTER TABLE questions DROP COLUMN search;
  CREATE INDEX questions_search ON questions USING gin (askdock_question_vector(record, session_key));`;
const QUESTION_SEARCH_STEPS = 1;
/** How many schema steps those undo (the scoped search indexes, after them, are counted apart). */
const UNDONE_STEPS = 4;
/** On PostgreSQL, the steps after them, undone too: a chat event's message_id, the flush table, the scoped search indexes. */
const POSTGRES_STEPS_AFTER = 3;

/** Turns a closed SQLite file back into that older schema. */
export function olderSqliteFile(file: string): void {
  const raw = new Database(file);
  raw.exec(`DROP INDEX questions_route_due; ${UNDO_AUDIT} ${UNDO_GRANTS} ${UNDO_PUSH_TOKEN} ${UNDO_SECRET_OWNER_SQLITE} ${UNDO_SEARCH_SQLITE} ${UNDO_ASKER_STEPS}`);
  raw.pragma(`user_version = ${SCHEMA_VERSION - UNDONE_STEPS - SECRET_OWNER_STEPS - PUSH_TOKEN_STEPS - SEARCH_SCOPE_STEPS - GRANT_STEPS - SQLITE_AUDIT_STEPS - ROUTE_STEPS - QUESTION_INDEX_STEPS}`);
  raw.close();
}

/** Turns a PostgreSQL schema back into that older one. */
export async function olderPostgresSchema(url: string): Promise<void> {
  const raw = new pg.Client({ connectionString: url });
  await raw.connect();
  await raw.query(`${UNDO_QUESTION_SEARCH_POSTGRES} ${UNDO_ROUTES_POSTGRES} ${UNDO_AUDIT} ${UNDO_GRANTS} ${UNDO_PUSH_TOKEN} ${UNDO_SECRET_OWNER_POSTGRES} ${UNDO_SEARCH_POSTGRES} ${UNDO_ASKER_STEPS} ALTER TABLE events DROP COLUMN message_id; DROP TABLE askdock_flush;\n       UPDATE askdock_schema SET version = version - ${UNDONE_STEPS + POSTGRES_STEPS_AFTER + SECRET_OWNER_STEPS + PUSH_TOKEN_STEPS + GRANT_STEPS + AUDIT_STEPS + ROUTE_STEPS + QUESTION_SEARCH_STEPS}`);
  await raw.end();
}

/** S5: questions of an older schema (`downgrade` makes it one) learn who asked them; C4: an open run of it streams on; U19: it is indexed. */
export async function migratesAnOlderSchema(harness: Harness, downgrade: () => void | Promise<void>): Promise<void> {
  const first = await harness.open();
  await first.insertQuestion(question('q1'));
  await first.insertQuestion(question('q2', { askedBy: 'other-agent' }));
  await first.insertQuestion(question('q3', { status: 'answered', answers: { pick: ['A'] } }));
  await first.insertRun(run('r1'));
  await first.insertSecretRequest({ id: 'k-old', name: 'OLD_KEY', description: 'old', askedBy: 'agent-a', createdAtMs: 1, expiresAtMs: 2, status: 'stored' });
  await first.close();
  await downgrade();
  const second = await harness.open();
  // K1: a secret stored before secrets had owners belongs to the agent that asked for it; one whose request is gone, to nobody.
  expect((await second.getSecret('agent-a', 'OLD_KEY'))).toStrictEqual({ owner: 'agent-a', name: 'OLD_KEY', ciphertext: 'v1:old', storedBy: 'op', requestId: 'k-old', storedAtMs: 1000 });
  expect((await second.getSecret('agent-b', 'OLD_KEY'))).toBeUndefined();
  expect((await second.getSecret('agent-a', 'ORPHAN_KEY'))).toBeUndefined();
  expect(await second.countPendingAskedBy('agent')).toBe(1);
  expect(await second.countPendingAskedBy('other-agent')).toBe(1);
  await second.updateRun(run('r1', { streamingMessageId: 'm-stream' }));
  expect((await second.getRun('r1'))?.streamingMessageId).toBe('m-stream');
  // U19: what was stored before the search indexes existed is found once they are made.
  const hits = await second.search({ terms: ['which'], sessionKeys: null, questions: { sessionKeys: null, sessionless: true }, limit: 10 });
  expect(hits.map((h) => h.id).sort()).toEqual(['q1', 'q2', 'q3']);
  await second.close();
}
