import { createHash } from 'node:crypto';
import { messageWords, nothingMatches, questionWords, sessionWords, tsqueryOf, type ScopeWords, type Spell } from '../search.ts';
import type { SearchCandidate, SearchScope } from '../types.ts';
import type { QueryResult } from './pool.ts';

type Query = (sql: string, params?: unknown[]) => Promise<QueryResult>;

/** The scope words of the migration's askdock_*_vector functions: '#', then a kind and the md5 of the value. */
export const spell: Spell = (kind, value) => kind + createHash('md5').update(value, 'utf8').digest('hex');

/** A tsquery of the scope words (taken as written, no text search parsing), or null when there are none. */
function scopeQuery(words: ScopeWords): string | null {
  if (words.any.length === 0) return null;
  return words.any.map((group) => `(${group.map((w) => `'#${w}'`).join(' | ')})`).join(' & ');
}

/**
 * Each kind's condition: its terms and its scope words together against its GIN index (migrations.ts), so a row the
 * identity may not see never matches. Null when nothing can match.
 */
function matching(vector: string, words: ScopeWords): string | null {
  if (nothingMatches(words)) return null;
  const scope = scopeQuery(words);
  return `${vector} @@ ${scope === null ? `to_tsquery('simple', $1)` : `(to_tsquery('simple', $1) && $3::tsquery)`}`;
}

/** U19 on PostgreSQL: full-text search over the GIN indexes of migrations.ts (a question's over its search column), newest first. */
export async function searchPostgres(q: Query, scope: SearchScope): Promise<SearchCandidate[]> {
  if (scope.terms.length === 0 || scope.limit <= 0) return [];
  const run = async (vector: string, columns: string, table: string, words: ScopeWords) => {
    const where = matching(vector, words);
    if (where === null) return [];
    const scopeWords = scopeQuery(words);
    const params: unknown[] = [tsqueryOf(scope.terms), scope.limit, ...(scopeWords === null ? [] : [scopeWords])];
    return (await q(`SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY n DESC LIMIT $2`, params)).rows;
  };
  const found: SearchCandidate[] = [];
  const sessions = await run('askdock_session_vector(title, key)', 'key, title, COALESCE(last_message_at_ms, created_at_ms) AS at_ms', 'sessions', sessionWords(scope, spell));
  for (const r of sessions) found.push({ kind: 'session', id: String(r.key), sessionKey: String(r.key), text: String(r.title), atMs: Number(r.at_ms) });
  const messages = await run(
    'askdock_message_vector(text, session_key, privileged_asker)',
    'id, session_key, text, created_at_ms, reply_to',
    'messages',
    messageWords(scope, spell),
  );
  for (const r of messages) {
    const replyTo = r.reply_to == null ? undefined : (JSON.parse(String(r.reply_to)) as { questionId?: string }).questionId;
    found.push({
      kind: 'message',
      id: String(r.id),
      sessionKey: String(r.session_key),
      text: String(r.text),
      atMs: Number(r.created_at_ms),
      ...(replyTo ? { replyToQuestionId: replyTo } : {}),
    });
  }
  if (scope.questions) {
    const questions = await run(
      'search',
      'id, session_key, askdock_question_text(record) AS body, created_at_ms',
      'questions',
      questionWords(scope.questions, spell),
    );
    for (const r of questions)
      found.push({ kind: 'question', id: String(r.id), sessionKey: r.session_key == null ? null : String(r.session_key), text: String(r.body), atMs: Number(r.created_at_ms) });
  }
  return found;
}
