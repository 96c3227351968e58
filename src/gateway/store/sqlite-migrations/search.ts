import type { MigrationStep } from '../migration-step.ts';
import { scopedSearchIndexes } from '../sqlite-search-scope.ts';

// U19: the FTS5 indexes, their scope words (A3), and the questions' rows written by the store.

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

// U19: full-text indexes (FTS5) of session titles, messages and question records, kept by triggers in the same transaction.
export const searchIndexes: MigrationStep = {
  id: 'search-indexes',
  sql: SEARCH_INDEXES,
};

// U19/A3: each search index also holds who may see a row, so a search never reads one hidden from its identity.
export const searchScopeWords: MigrationStep = {
  id: 'search-scope-words',
  sql: scopedSearchIndexes(TOKENIZE, questionText),
};

// U19: a question's search row is written by the store once per commit (sqlite-question-index.ts), not by a trigger in
// each unit; the delete trigger stays.
export const questionRowsByStore: MigrationStep = {
  id: 'search-question-rows',
  sql: `DROP TRIGGER questions_fts_insert; DROP TRIGGER questions_fts_update;`,
};
