import { SEARCH_LIMIT_DEFAULT, type SearchResult } from '../../protocol/index.ts';
import { searchTerms, snippetOf } from '../../lib/search-text.ts';
import type { Identity } from '../auth.ts';
import type { Core } from '../core.ts';
import type { SearchScope } from '../store/types.ts';
import { canReadSession, readsEverySession, seesEveryQuestion } from '../sessions/visibility.ts';
import type { HandlerTable } from './types.ts';

/** Shown as the "session" of a sessionless question: the Control UI's Inbox (U15). */
export const INBOX_TITLE = 'Inbox';

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
  if (seesEveryQuestion(identity)) return { sessionKeys: null, sessionless: true, privileged: true };
  if (identity.scopes.has('agent.run')) return { sessionKeys: null, sessionless: true, askedBy: identity.id, privileged: true };
  if (!identity.scopes.has('operator.sessions.write')) return null;
  // A guest that also reads every session (operator.read) still sees questions only in the sessions it created.
  if (readable !== null) return { sessionKeys: readable, sessionless: false };
  const created = (await core.store.listSessions()).filter((s) => s.createdBy === identity.id).map((s) => s.key);
  return { sessionKeys: created, sessionless: false };
}

/** A3: the replies to privileged questions this identity may read: every one, or those to its own questions (an agent's). */
function privilegedReplies(identity: Identity): SearchScope['privilegedReplies'] {
  if (seesEveryQuestion(identity)) return 'every';
  return identity.scopes.has('agent.run') ? { askedBy: identity.id } : undefined;
}

/** U19: titles, messages and question records this identity may see, newest first, each with its match marked. */
export async function search(core: Core, identity: Identity, query: string, limit: number): Promise<SearchResult[]> {
  const terms = searchTerms(query);
  if (terms.length === 0) return [];
  const sessionKeys = await readableKeys(core, identity);
  const questions = await questionScope(core, identity, sessionKeys);
  const replies = privilegedReplies(identity);
  // Every candidate is one the identity may see: the store's indexes test the scope (A3), none is dropped after.
  const candidates = await core.store.search({ terms, sessionKeys, questions, ...(replies ? { privilegedReplies: replies } : {}), limit });
  const titles = new Map<string, string>();
  // A question in a session the identity may not read (operator.questions alone) is shown without that session's title.
  const readable = (key: string) => sessionKeys === null || sessionKeys.includes(key);
  const titleOf = async (sessionKey: string | null) => {
    if (sessionKey === null) return INBOX_TITLE;
    if (!readable(sessionKey)) return '';
    let title = titles.get(sessionKey);
    if (title === undefined) titles.set(sessionKey, (title = (await core.getSession(sessionKey))?.title ?? ''));
    return title;
  };
  const shown = candidates.sort((a, b) => b.atMs - a.atMs).slice(0, limit);
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
