import type Database from 'better-sqlite3';
import { fts5Match, hexWord, messageWords, nothingMatches, questionWords, sessionWords, type ScopeWords } from './search.ts';
import type { SearchCandidate, SearchScope } from './types.ts';

type Db = Database.Database;
type Bind = { match: string; limit: number };

const quoted = (word: string) => `"${word.replaceAll('"', '""')}"`;

/**
 * The MATCH of one index: the terms in its text column, and each group of scope words in its scope column, so only rows
 * the identity may see are found (sqlite-search-scope.ts). Null when nothing can match.
 */
function matchOf(column: string, terms: readonly string[], words: ScopeWords): string | null {
  if (nothingMatches(words)) return null;
  const scope = words.any.map((group) => ` AND {scope} : (${group.map(quoted).join(' OR ')})`);
  return `{${column}} : (${fts5Match(terms)})${scope.join('')}`;
}

/** U19 on SQLite: the FTS5 indexes of sqlite-search-scope.ts, one prepared statement per kind. Newest first: FTS5 walks its rowids backwards. */
export function prepareSearch(db: Db): (scope: SearchScope) => SearchCandidate[] {
  const sessions = db.prepare<Bind, { key: string; title: string; at_ms: number }>(
    `SELECT s.key, s.title, COALESCE(s.last_message_at_ms, s.created_at_ms) AS at_ms
     FROM sessions_fts JOIN sessions s ON s.n = sessions_fts.rowid
     WHERE sessions_fts MATCH @match ORDER BY sessions_fts.rowid DESC LIMIT @limit`,
  );
  const messages = db.prepare<Bind, { id: string; session_key: string; text: string; created_at_ms: number; reply_to: string | null }>(
    `SELECT m.id, m.session_key, m.text, m.created_at_ms, m.reply_to
     FROM messages_fts JOIN messages m ON m.n = messages_fts.rowid
     WHERE messages_fts MATCH @match ORDER BY messages_fts.rowid DESC LIMIT @limit`,
  );
  const questions = db.prepare<Bind, { id: string; session_key: string | null; body: string; created_at_ms: number }>(
    `SELECT q.id, q.session_key, questions_fts.body, q.created_at_ms
     FROM questions_fts JOIN questions q ON q.n = questions_fts.rowid
     WHERE questions_fts MATCH @match ORDER BY questions_fts.rowid DESC LIMIT @limit`,
  );

  return (scope) => {
    if (scope.terms.length === 0 || scope.limit <= 0) return [];
    const bind = (column: string, words: ScopeWords): Bind | null => {
      const match = matchOf(column, scope.terms, words);
      return match === null ? null : { match, limit: scope.limit };
    };
    const found: SearchCandidate[] = [];
    const sessionBind = bind('title', sessionWords(scope, hexWord));
    if (sessionBind)
      for (const s of sessions.all(sessionBind)) found.push({ kind: 'session', id: s.key, sessionKey: s.key, text: s.title, atMs: s.at_ms });
    const messageBind = bind('text', messageWords(scope, hexWord));
    if (messageBind)
      for (const m of messages.all(messageBind)) {
        const replyTo = m.reply_to === null ? undefined : (JSON.parse(m.reply_to) as { questionId?: string }).questionId;
        found.push({ kind: 'message', id: m.id, sessionKey: m.session_key, text: m.text, atMs: m.created_at_ms, ...(replyTo ? { replyToQuestionId: replyTo } : {}) });
      }
    const questionBind = scope.questions && bind('body', questionWords(scope.questions, hexWord));
    if (questionBind)
      for (const q of questions.all(questionBind)) found.push({ kind: 'question', id: q.id, sessionKey: q.session_key, text: q.body, atMs: q.created_at_ms });
    return found;
  };
}
