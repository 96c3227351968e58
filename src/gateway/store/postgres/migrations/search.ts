import type { MigrationStep } from '../../migration-step.ts';

// U19: the full-text indexes, their scope words (A3) and the questions' search column.

// U19: full-text indexes of session titles, messages and question records (each header and question, then the answers).
export const searchIndexes: MigrationStep = {
  id: 'search-indexes',
  sql: `
  CREATE FUNCTION askdock_question_text(record text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
    SELECT COALESCE((SELECT string_agg((q->>'header') || ' ' || (q->>'question'), ' ') FROM json_array_elements(record::json->'questions') q), '')
      || COALESCE(' ' || (SELECT string_agg(a, ' ')
                          FROM json_each(COALESCE(record::json->'answers', '{}'::json)) e, json_array_elements_text(e.value) a), '')
  $f$;
  CREATE INDEX sessions_search ON sessions USING gin (to_tsvector('simple', title));
  CREATE INDEX messages_search ON messages USING gin (to_tsvector('simple', text));
  CREATE INDEX questions_search ON questions USING gin (to_tsvector('simple', askdock_question_text(record)));
  `,
};

// U19/A3: each search index also holds who may see a row (scope words beside its words: ../search.ts), so a search never
// reads a row hidden from its identity. The scope words start with '#', which no text's words do.
export const searchScopeWords: MigrationStep = {
  id: 'search-scope-words',
  sql: `
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
};

// U19/D5: a question's search vector as a column written with the row from text and scope words the gateway computes
// (../questions.ts), instead of an index expression that parses the record's JSON on every write.
export const questionSearchColumn: MigrationStep = {
  id: 'search-question-column',
  sql: `
  ALTER TABLE questions ADD COLUMN search tsvector;
  UPDATE questions SET search = askdock_question_vector(record, session_key);
  DROP INDEX questions_search;
  CREATE INDEX questions_search ON questions USING gin (search);
  `,
};
