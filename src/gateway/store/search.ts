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

/**
 * A3/A6 as words of each index's own: every row is indexed with scope words (its session, who may read it) beside its
 * text, and a search asks for them with its terms, so a row the identity may not see never matches at all.
 * `any` groups are ANDed; within a group any word will do; an empty group means nothing can match.
 */
export type ScopeWords = { any: string[][] };
/** How a store spells an identity-derived word (a session key, an asker): it must be a single word of its index. */
export type Spell = (kind: 's' | 'a' | 'p', value: string) => string;

/** The scope words of a row, in the order the stores index them (their migrations compute the same in SQL). */
export const hexWord: Spell = (kind, value) => kind + Buffer.from(value, 'utf8').toString('hex');

export function sessionWords(scope: SearchScope, spell: Spell): ScopeWords {
  return { any: scope.sessionKeys === null ? [] : [scope.sessionKeys.map((k) => spell('s', k))] };
}

/** A message: its session, and `public` or the privileged question's asker (A3). */
export function messageWords(scope: SearchScope, spell: Spell): ScopeWords {
  const any = sessionWords(scope, spell).any;
  const replies = scope.privilegedReplies;
  if (replies === undefined) any.push(['public']);
  else if (replies !== 'every') any.push(['public', spell('p', replies.askedBy)]);
  return { any };
}

/** A question: `insession` and its session or `nosession`, its asker, `privileged` or `open`. */
export function questionWords(where: NonNullable<SearchScope['questions']>, spell: Spell): ScopeWords {
  const any: string[][] = [];
  if (where.sessionKeys !== null) any.push([...where.sessionKeys.map((k) => spell('s', k)), ...(where.sessionless ? ['nosession'] : [])]);
  else if (!where.sessionless) any.push(['insession']);
  if (where.askedBy !== undefined) any.push([spell('a', where.askedBy)]);
  if (!where.privileged) any.push(['open']);
  return { any };
}

/** A question record's scope words (the SQL indexes compute the same). */
export function questionRowWords(q: Pick<StoredQuestion, 'sessionKey' | 'askedBy' | 'privileged'>, spell: Spell): string[] {
  const where = q.sessionKey === undefined || q.sessionKey === null ? ['nosession'] : ['insession', spell('s', q.sessionKey)];
  return [...where, spell('a', q.askedBy), q.privileged === true ? 'privileged' : 'open'];
}

/** Whether a row with these scope words is in scope (the memory store's check; the others ask their indexes). */
export const wordsAllow = (words: ScopeWords, row: ReadonlySet<string>) => words.any.every((group) => group.some((w) => row.has(w)));
export const nothingMatches = (words: ScopeWords) => words.any.some((group) => group.length === 0);

const newestFirst = <T>(entries: Iterable<Entry<T>>) => [...entries].sort((a, b) => b.n - a.n);

/** The memory store's search: a scan, which is what a throwaway store can afford; the durable stores use their indexes. */
export function searchEntries(
  scope: SearchScope,
  data: { sessions: Iterable<Entry<SessionRow>>; messages: Iterable<Entry<ChatMessage>>; questions: Iterable<Entry<StoredQuestion>> },
): SearchCandidate[] {
  const { terms, limit } = scope;
  const found: SearchCandidate[] = [];
  const questionEntries = [...data.questions];
  const questions = new Map(questionEntries.map((e) => [e.value.id, e.value]));
  const take = <T>(entries: Iterable<Entry<T>>, words: ScopeWords, rowWords: (value: T) => string[], pick: (value: T) => SearchCandidate) => {
    if (nothingMatches(words)) return;
    let n = 0;
    for (const { value } of newestFirst(entries)) {
      if (n >= limit) break;
      if (!wordsAllow(words, new Set(rowWords(value)))) continue;
      const candidate = pick(value);
      if (matchesAllTerms(candidate.text, terms)) {
        found.push(candidate);
        n++;
      }
    }
  };
  const spell = hexWord;
  take(data.sessions, sessionWords(scope, spell), (s) => [spell('s', s.key)], (s) => ({ kind: 'session', id: s.key, sessionKey: s.key, text: s.title, atMs: s.lastMessageAtMs ?? s.createdAtMs }));
  const askerOf = (m: ChatMessage) => {
    const q = m.replyTo && questions.get(m.replyTo.questionId);
    return q && q.privileged === true ? q.askedBy : undefined;
  };
  const messageRow = (m: ChatMessage) => {
    const asker = askerOf(m);
    return [spell('s', m.sessionKey), asker === undefined ? 'public' : spell('p', asker)];
  };
  take(data.messages, messageWords(scope, spell), messageRow, (m) => ({
    kind: 'message',
    id: m.id,
    sessionKey: m.sessionKey,
    text: m.text,
    atMs: m.createdAtMs,
    ...(m.replyTo ? { replyToQuestionId: m.replyTo.questionId } : {}),
  }));
  if (scope.questions)
    take(questionEntries, questionWords(scope.questions, spell), (q) => questionRowWords(q, spell), (q) => ({
      kind: 'question', id: q.id, sessionKey: q.sessionKey ?? null, text: questionSearchText(q), atMs: q.createdAtMs,
    }));
  return found;
}
