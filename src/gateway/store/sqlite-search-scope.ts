/**
 * U19/A3 on SQLite: the search indexes again, each row with its scope words (store/search.ts) in a column of its own
 * beside its text, so a search asks its index for what the identity may see and nothing else is ever a candidate.
 * A message's `privileged_asker` is the asker of the privileged question it answers (set as it is written).
 */

/** `'s' || hex(key)`: the same word hexWord spells in JS (hex() is upper case; the index folds case). */
const hexWord = (kind: string, column: string) => `'${kind}' || hex(${column})`;
// hex(NULL) is '', never NULL: a missing value is tested with CASE.
const MESSAGE_SCOPE = (r: string) =>
  `${hexWord('s', `${r}.session_key`)} || CASE WHEN ${r}.privileged_asker IS NULL THEN ' public' ELSE ' ' || ${hexWord('p', `${r}.privileged_asker`)} END`;
const SESSION_SCOPE = (r: string) => hexWord('s', `${r}.key`);
export const QUESTION_SCOPE = (r: string) => `
  CASE WHEN ${r}.session_key IS NULL THEN 'nosession' ELSE 'insession ' || ${hexWord('s', `${r}.session_key`)} END
  || ' ' || ${hexWord('a', `json_extract(${r}.record, '$.askedBy')`)}
  || CASE WHEN json_extract(${r}.record, '$.privileged') = 1 THEN ' privileged' ELSE ' open' END`;

/** The asker of the privileged question a reply (its reply_to JSON) answers, or NULL. */
export const PRIVILEGED_ASKER = (replyTo: string) =>
  `(SELECT q.asked_by FROM questions q WHERE q.id = json_extract(${replyTo}, '$.questionId') AND json_extract(q.record, '$.privileged') = 1)`;

/** A contentless index of `table.column` with its scope words, kept by triggers. */
const scopedIndex = (table: string, column: string, scope: (r: string) => string, tokenize: string) => `
  DROP TRIGGER ${table}_fts_insert;
  DROP TRIGGER ${table}_fts_update;
  DROP TRIGGER ${table}_fts_delete;
  DROP TABLE ${table}_fts;
  CREATE VIRTUAL TABLE ${table}_fts USING fts5(${column}, scope, content = '', contentless_delete = 1, ${tokenize});
  CREATE TRIGGER ${table}_fts_insert AFTER INSERT ON ${table} BEGIN
    INSERT INTO ${table}_fts (rowid, ${column}, scope) VALUES (new.n, new.${column}, ${scope('new')});
  END;
  CREATE TRIGGER ${table}_fts_update AFTER UPDATE OF ${column} ON ${table} BEGIN
    DELETE FROM ${table}_fts WHERE rowid = old.n;
    INSERT INTO ${table}_fts (rowid, ${column}, scope) VALUES (new.n, new.${column}, ${scope('new')});
  END;
  CREATE TRIGGER ${table}_fts_delete AFTER DELETE ON ${table} BEGIN
    DELETE FROM ${table}_fts WHERE rowid = old.n;
  END;
  INSERT INTO ${table}_fts (rowid, ${column}, scope) SELECT r.n, r.${column}, ${scope('r')} FROM ${table} r;
`;

export const scopedSearchIndexes = (tokenize: string, questionText: (record: string) => string) => `
  ALTER TABLE messages ADD COLUMN privileged_asker TEXT;
  UPDATE messages SET privileged_asker = ${PRIVILEGED_ASKER('messages.reply_to')} WHERE reply_to IS NOT NULL;
  CREATE INDEX messages_privileged ON messages (privileged_asker, session_key, created_at_ms) WHERE privileged_asker IS NOT NULL;
  ${scopedIndex('messages', 'text', MESSAGE_SCOPE, tokenize)}
  ${scopedIndex('sessions', 'title', SESSION_SCOPE, tokenize)}
  DROP TRIGGER questions_fts_insert;
  DROP TRIGGER questions_fts_update;
  DROP TRIGGER questions_fts_delete;
  DROP TABLE questions_fts;
  CREATE VIRTUAL TABLE questions_fts USING fts5(body, scope, ${tokenize});
  CREATE TRIGGER questions_fts_insert AFTER INSERT ON questions BEGIN
    INSERT INTO questions_fts (rowid, body, scope) VALUES (new.n, ${questionText('new.record')}, ${QUESTION_SCOPE('new')});
  END;
  CREATE TRIGGER questions_fts_update AFTER UPDATE OF record ON questions BEGIN
    DELETE FROM questions_fts WHERE rowid = old.n;
    INSERT INTO questions_fts (rowid, body, scope) VALUES (new.n, ${questionText('new.record')}, ${QUESTION_SCOPE('new')});
  END;
  CREATE TRIGGER questions_fts_delete AFTER DELETE ON questions BEGIN
    DELETE FROM questions_fts WHERE rowid = old.n;
  END;
  INSERT INTO questions_fts (rowid, body, scope) SELECT r.n, ${questionText('r.record')}, ${QUESTION_SCOPE('r')} FROM questions r;
`;
