import type { ChatMessage } from '../../protocol/index.ts';
import { matchesAllTerms } from '../../lib/search-text.ts';
import type { Entry } from './memory-journal.ts';
import type { SearchCandidate, SearchScope, SessionRow, StoredQuestion } from './types.ts';

/**
 * U19: the text a question record is found by: each question's header and wording, then its answers. The SQLite and
 * PostgreSQL indexes compute the same text in SQL (their migrations); keep the three in step.
 */
export function questionSearchText(q: Pick<StoredQuestion, 'questions' | 'answers'>): string {
  const asked = q.questions.map((item) => `${item.header} ${item.question}`);
  const answered = Object.values(q.answers ?? {}).flat();
  return [...asked, ...answered].join(' ');
}

/** An FTS5 query: every term as a quoted word prefix, all required. */
export function fts5Match(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replaceAll('"', '""')}"*`).join(' ');
}

/** A PostgreSQL tsquery: every term as a word prefix, all required (the terms hold only letters and digits). */
export function tsqueryOf(terms: readonly string[]): string {
  return terms.map((t) => `${t.replace(/[^\p{L}\p{N}]/gu, '')}:*`).join(' & ');
}

const inSessions = (keys: readonly string[] | null, sessionKey: string) => keys === null || keys.includes(sessionKey);

/** Whether a question record lies in the scope's questions (before its text is matched). */
function questionInScope(scope: SearchScope, q: StoredQuestion): boolean {
  const where = scope.questions;
  if (!where || (where.askedBy !== undefined && q.askedBy !== where.askedBy)) return false;
  return q.sessionKey === undefined ? where.sessionless : inSessions(where.sessionKeys, q.sessionKey);
}

const newestFirst = <T>(entries: Iterable<Entry<T>>) => [...entries].sort((a, b) => b.n - a.n);

/** The memory store's search: a scan, which is what a throwaway store can afford; the durable stores use their indexes. */
export function searchEntries(
  scope: SearchScope,
  data: { sessions: Iterable<Entry<SessionRow>>; messages: Iterable<Entry<ChatMessage>>; questions: Iterable<Entry<StoredQuestion>> },
): SearchCandidate[] {
  const { terms, limit } = scope;
  const found: SearchCandidate[] = [];
  const take = <T>(entries: Iterable<Entry<T>>, pick: (value: T) => SearchCandidate | undefined) => {
    let n = 0;
    for (const { value } of newestFirst(entries)) {
      if (n >= limit) break;
      const candidate = pick(value);
      if (candidate && matchesAllTerms(candidate.text, terms)) {
        found.push(candidate);
        n++;
      }
    }
  };
  take(data.sessions, (s) => (!inSessions(scope.sessionKeys, s.key) ? undefined : { kind: 'session', id: s.key, sessionKey: s.key, text: s.title, atMs: s.lastMessageAtMs ?? s.createdAtMs }));
  take(data.messages, (m) => (!inSessions(scope.sessionKeys, m.sessionKey) ? undefined : {
    kind: 'message',
    id: m.id,
    sessionKey: m.sessionKey,
    text: m.text,
    atMs: m.createdAtMs,
    ...(m.replyTo ? { replyToQuestionId: m.replyTo.questionId } : {}),
  }));
  take(data.questions, (q) => (!questionInScope(scope, q) ? undefined : { kind: 'question', id: q.id, sessionKey: q.sessionKey ?? null, text: questionSearchText(q), atMs: q.createdAtMs }));
  return found;
}
