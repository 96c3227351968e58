import { SEARCH_LIMIT_DEFAULT, type SearchResult } from '../../protocol/index.ts';
import { searchTerms, snippetOf } from '../../lib/search-text.ts';
import type { Identity } from '../auth.ts';
import type { Core } from '../core.ts';
import type { SearchCandidate, SearchScope } from '../store/types.ts';
import { canReadSession, canSeeQuestion, readsEverySession, seesEveryQuestion } from '../visibility.ts';
import type { HandlerTable } from './types.ts';

/** Shown as the "session" of a sessionless question: the Control UI's Inbox (U15). */
export const INBOX_TITLE = 'Inbox';
/** Candidates asked of the index per kind, beyond `limit`, for those a finer rule (A3) then drops. */
const SLACK = 2;

/** The sessions this identity may read, or null for every session (A2, A6). */
function readableKeys(core: Core, identity: Identity): string[] | null {
  if (readsEverySession(identity)) return null;
  return core.store
    .listSessions()
    .map((s) => core.resolve(s))
    .filter((s) => canReadSession(identity, s))
    .map((s) => s.key);
}

/** A3: every question, a guest's in its own sessions, an agent's own; none for session access alone (read, write). */
function questionScope(identity: Identity, readable: string[] | null): SearchScope['questions'] {
  if (seesEveryQuestion(identity)) return { sessionKeys: null, sessionless: true };
  if (identity.scopes.has('agent.run')) return { sessionKeys: null, sessionless: true, askedBy: identity.id };
  if (identity.scopes.has('operator.sessions.write')) return { sessionKeys: readable ?? [], sessionless: false };
  return null;
}

/** A3 for each hit: a question as visible as itself, a message that answers a question as visible as that question. */
function visible(core: Core, identity: Identity, hit: SearchCandidate): boolean {
  const questionId = hit.kind === 'question' ? hit.id : hit.replyToQuestionId;
  if (questionId === undefined) return true;
  const q = core.store.getQuestion(questionId);
  if (!q) return hit.kind !== 'question';
  const owner = q.sessionKey === undefined ? undefined : core.ownerOf(q.sessionKey);
  if (hit.kind === 'question') return canSeeQuestion(identity, q, owner);
  return !q.privileged || canSeeQuestion(identity, q, owner);
}

/** U19: titles, messages and question records this identity may see, newest first, each with its match marked. */
export function search(core: Core, identity: Identity, query: string, limit: number): SearchResult[] {
  const terms = searchTerms(query);
  if (terms.length === 0) return [];
  const sessionKeys = readableKeys(core, identity);
  const candidates = core.store.search({ terms, sessionKeys, questions: questionScope(identity, sessionKeys), limit: limit * SLACK });
  const titles = new Map<string, string>();
  const titleOf = (sessionKey: string | null) => {
    if (sessionKey === null) return INBOX_TITLE;
    let title = titles.get(sessionKey);
    if (title === undefined) titles.set(sessionKey, (title = core.getSession(sessionKey)?.title ?? ''));
    return title;
  };
  return candidates
    .sort((a, b) => b.atMs - a.atMs)
    .filter((hit) => visible(core, identity, hit))
    .slice(0, limit)
    .map((hit) => ({
      kind: hit.kind,
      id: hit.id,
      ...(hit.sessionKey !== null ? { sessionKey: hit.sessionKey } : {}),
      sessionTitle: titleOf(hit.sessionKey),
      ...snippetOf(hit.text, terms),
      atMs: hit.atMs,
    }));
}

export const searchHandlers: Pick<HandlerTable, 'search'> = {
  search: (p, { core, conn }) => ({ results: search(core, conn.identity, p.query, p.limit ?? SEARCH_LIMIT_DEFAULT) }),
};
