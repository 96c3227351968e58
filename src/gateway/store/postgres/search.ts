import { tsqueryOf } from '../search.ts';
import type { SearchCandidate, SearchScope } from '../types.ts';
import type { QueryResult } from './pool.ts';

type Query = (sql: string, params?: unknown[]) => Promise<QueryResult>;

// $2: the session keys in scope, or NULL for every session. The expressions match the GIN indexes of the migration.
const IN_SCOPE = (column: string) => `($2::text[] IS NULL OR ${column} = ANY($2::text[]))`;

/** U19 on PostgreSQL: full-text search over the GIN indexes of migrations.ts, newest first. */
export async function searchPostgres(q: Query, scope: SearchScope): Promise<SearchCandidate[]> {
  if (scope.terms.length === 0 || scope.limit <= 0) return [];
  const params = [tsqueryOf(scope.terms), scope.sessionKeys === null ? null : [...scope.sessionKeys], scope.limit];
  const found: SearchCandidate[] = [];
  const sessions = await q(
    `SELECT key, title, COALESCE(last_message_at_ms, created_at_ms) AS at_ms FROM sessions
     WHERE to_tsvector('simple', title) @@ to_tsquery('simple', $1) AND ${IN_SCOPE('key')} ORDER BY n DESC LIMIT $3`,
    params,
  );
  for (const r of sessions.rows) found.push({ kind: 'session', id: String(r.key), sessionKey: String(r.key), text: String(r.title), atMs: Number(r.at_ms) });
  const messages = await q(
    `SELECT id, session_key, text, created_at_ms, reply_to FROM messages
     WHERE to_tsvector('simple', text) @@ to_tsquery('simple', $1) AND ${IN_SCOPE('session_key')} ORDER BY n DESC LIMIT $3`,
    params,
  );
  for (const r of messages.rows) {
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
  const where = scope.questions;
  if (where) {
    const questions = await q(
      `SELECT id, session_key, askdock_question_text(record) AS body, created_at_ms FROM questions
       WHERE to_tsvector('simple', askdock_question_text(record)) @@ to_tsquery('simple', $1)
         AND (CASE WHEN session_key IS NULL THEN $4 ELSE ${IN_SCOPE('session_key')} END)
         AND ($5::text IS NULL OR asked_by = $5)
       ORDER BY n DESC LIMIT $3`,
      [params[0], where.sessionKeys === null ? null : [...where.sessionKeys], scope.limit, where.sessionless, where.askedBy ?? null],
    );
    for (const r of questions.rows)
      found.push({ kind: 'question', id: String(r.id), sessionKey: r.session_key == null ? null : String(r.session_key), text: String(r.body), atMs: Number(r.created_at_ms) });
  }
  return found;
}
