import type Database from 'better-sqlite3';
import { fts5Match } from './search.ts';
import type { SearchCandidate, SearchScope } from './types.ts';

type Db = Database.Database;
type Bind = { match: string; keys: string | null; limit: number };
type QuestionBind = Bind & { sessionless: number; askedBy: string | null };

// `keys`: a JSON array of session keys, or NULL for every session. Newest first: FTS5 walks its rowids backwards.
const IN_SCOPE = (column: string) => `(@keys IS NULL OR ${column} IN (SELECT value FROM json_each(@keys)))`;

/** U19 on SQLite: the FTS5 indexes of sqlite-migrations.ts, one prepared statement per kind. */
export function prepareSearch(db: Db): (scope: SearchScope) => SearchCandidate[] {
  const sessions = db.prepare<Bind, { key: string; title: string; at_ms: number }>(
    `SELECT s.key, s.title, COALESCE(s.last_message_at_ms, s.created_at_ms) AS at_ms
     FROM sessions_fts JOIN sessions s ON s.n = sessions_fts.rowid
     WHERE sessions_fts MATCH @match AND ${IN_SCOPE('s.key')}
     ORDER BY sessions_fts.rowid DESC LIMIT @limit`,
  );
  const messages = db.prepare<Bind, { id: string; session_key: string; text: string; created_at_ms: number; reply_to: string | null }>(
    `SELECT m.id, m.session_key, m.text, m.created_at_ms, m.reply_to
     FROM messages_fts JOIN messages m ON m.n = messages_fts.rowid
     WHERE messages_fts MATCH @match AND ${IN_SCOPE('m.session_key')}
     ORDER BY messages_fts.rowid DESC LIMIT @limit`,
  );
  const questions = db.prepare<QuestionBind, { id: string; session_key: string | null; body: string; created_at_ms: number }>(
    `SELECT q.id, q.session_key, questions_fts.body, q.created_at_ms
     FROM questions_fts JOIN questions q ON q.n = questions_fts.rowid
     WHERE questions_fts MATCH @match
       AND (CASE WHEN q.session_key IS NULL THEN @sessionless = 1 ELSE ${IN_SCOPE('q.session_key')} END)
       AND (@askedBy IS NULL OR q.asked_by = @askedBy)
     ORDER BY questions_fts.rowid DESC LIMIT @limit`,
  );

  return (scope) => {
    if (scope.terms.length === 0 || scope.limit <= 0) return [];
    const keysOf = (keys: readonly string[] | null) => (keys === null ? null : JSON.stringify(keys));
    const bind: Bind = { match: fts5Match(scope.terms), keys: keysOf(scope.sessionKeys), limit: scope.limit };
    const found: SearchCandidate[] = [];
    for (const s of sessions.all(bind)) found.push({ kind: 'session', id: s.key, sessionKey: s.key, text: s.title, atMs: s.at_ms });
    for (const m of messages.all(bind)) {
      const replyTo = m.reply_to === null ? undefined : (JSON.parse(m.reply_to) as { questionId?: string }).questionId;
      found.push({ kind: 'message', id: m.id, sessionKey: m.session_key, text: m.text, atMs: m.created_at_ms, ...(replyTo ? { replyToQuestionId: replyTo } : {}) });
    }
    const where = scope.questions;
    if (where) {
      const questionBind = { ...bind, keys: keysOf(where.sessionKeys), sessionless: where.sessionless ? 1 : 0, askedBy: where.askedBy ?? null };
      for (const q of questions.all(questionBind)) found.push({ kind: 'question', id: q.id, sessionKey: q.session_key, text: q.body, atMs: q.created_at_ms });
    }
    return found;
  };
}
