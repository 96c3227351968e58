import { SEARCH_LIMIT_DEFAULT, type SearchResult } from '../../protocol/index.ts';
import { searchTerms, snippetOf } from '../../lib/search-text.ts';
import type { Identity } from '../auth.ts';
import type { Core } from '../core.ts';
import type { SearchCandidate, SearchScope } from '../store/types.ts';
import { canReadSession, canSeeQuestion, readsEverySession, seesEveryQuestion } from '../sessions/visibility.ts';
import type { HandlerTable } from './types.ts';

/** Shown as the "session" of a sessionless question: the Control UI's Inbox (U15). */
export const INBOX_TITLE = 'Inbox';
/** Candidates asked of the index per kind, beyond `limit`, for those a finer rule (A3) then drops. */
const SLACK = 2;

/** The sessions this identity may read, or null for every session (A2, A6). */
async function readableKeys(core: Core, identity: Identity): Promise<string[] | null> {
  if (readsEverySession(identity)) return null;
  return (await core.store.listSessions())
    .map((s) => core.resolve(s))
    .filter((s) => canReadSession(identity, s))
    .map((s) => s.key);
}

/** A3: every question, a guest's in the sessions it created, an agent's own; none for session access alone (read, write). */
async function questionScope(core: Core, identity: Identity, readable: string[] | null): Promise<SearchScope['questions']> {
  if (seesEveryQuestion(identity)) return { sessionKeys: null, sessionless: true };
  if (identity.scopes.has('agent.run')) return { sessionKeys: null, sessionless: true, askedBy: identity.id };
  if (!identity.scopes.has('operator.sessions.write')) return null;
  // A guest that also reads every session (operator.read) still sees questions only in the sessions it created.
  if (readable !== null) return { sessionKeys: readable, sessionless: false };
  const created = (await core.store.listSessions()).filter((s) => s.createdBy === identity.id).map((s) => s.key);
  return { sessionKeys: created, sessionless: false };
}

/** A3 for each hit: a question as visible as itself, a message that answers a question as visible as that question. */
async function visible(core: Core, identity: Identity, hit: SearchCandidate): Promise<boolean> {
  const questionId = hit.kind === 'question' ? hit.id : hit.replyToQuestionId;
  if (questionId === undefined) return true;
  const q = await core.store.getQuestion(questionId);
  if (!q) return hit.kind !== 'question';
  const owner = q.sessionKey === undefined ? undefined : await core.ownerOf(q.sessionKey);
  if (hit.kind === 'question') return canSeeQuestion(identity, q, owner);
  return !q.privileged || canSeeQuestion(identity, q, owner);
}

/** U19: titles, messages and question records this identity may see, newest first, each with its match marked. */
export async function search(core: Core, identity: Identity, query: string, limit: number): Promise<SearchResult[]> {
  const terms = searchTerms(query);
  if (terms.length === 0) return [];
  const sessionKeys = await readableKeys(core, identity);
  const candidates = await core.store.search({ terms, sessionKeys, questions: await questionScope(core, identity, sessionKeys), limit: limit * SLACK });
  const titles = new Map<string, string>();
  const titleOf = async (sessionKey: string | null) => {
    if (sessionKey === null) return INBOX_TITLE;
    let title = titles.get(sessionKey);
    if (title === undefined) titles.set(sessionKey, (title = (await core.getSession(sessionKey))?.title ?? ''));
    return title;
  };
  const shown: SearchCandidate[] = [];
  for (const hit of candidates.sort((a, b) => b.atMs - a.atMs)) {
    if (shown.length === limit) break;
    if (await visible(core, identity, hit)) shown.push(hit);
  }
  const results: SearchResult[] = [];
  for (const hit of shown)
    results.push({
      kind: hit.kind,
      id: hit.id,
      ...(hit.sessionKey !== null ? { sessionKey: hit.sessionKey } : {}),
      sessionTitle: await titleOf(hit.sessionKey),
      ...snippetOf(hit.text, terms),
      atMs: hit.atMs,
    });
  return results;
}

export const searchHandlers: Pick<HandlerTable, 'search'> = {
  search: async (p, { core, conn }) => ({ results: await search(core, conn.identity, p.query, p.limit ?? SEARCH_LIMIT_DEFAULT) }),
};
