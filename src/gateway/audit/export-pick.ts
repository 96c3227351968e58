import type { Params } from '../../protocol/index.ts';
import type { AuditEntry } from '../../audit/index.ts';

/** A grant's entries name the question it came from, not an agent: `--agent` picks them by their own agentId (none). */
const OWN_AGENT = new Set<string>(['grant.made', 'grant.revoked']);
/**
 * A request the policy or a grant decided asked no one, so no `question.asked` entry is ever written for it. One that
 * names the agent's kind apart (`detail.agentKind`, written since agentId became the asking identity) is picked by its
 * agentId and is no unknown; an older one holds the kind in agentId (`claude-code`) and counts as unknown.
 */
const DECIDED_UNASKED = new Set<string>(['policy.allowed', 'policy.denied', 'grant.allowed']);
const namesItsAsker = (e: AuditEntry) => DECIDED_UNASKED.has(e.event) && e.detail?.agentKind !== undefined;

/**
 * L1/L5: who asked each question, as its `question.asked` entry records it (`identity`, in every version of the log).
 * Entries written before an entry's `agentId` became the asking identity carry an approval's kind there
 * (`claude-code`) or, for a plain question, nothing; entries are never changed, so the asker is read from here.
 */
function askersOf(entries: (AuditEntry | undefined)[]): Map<string, string> {
  const askers = new Map<string, string>();
  for (const e of entries)
    if (e?.event === 'question.asked' && e.questionId !== undefined && e.identity !== undefined && !askers.has(e.questionId)) askers.set(e.questionId, e.identity);
  return askers;
}

/**
 * L5/L6: the export's entries. `since`/`until` pick a run of indexes, from the first entry timed at or after `since` to
 * the last timed at or before `until`, with every entry between: an entry's time is taken before its index (commits
 * that finish in another order than they started, several gateways' clocks), and an entry left out between two kept
 * would read as a gap to `askdock audit verify`. The session and the agent then pick within the run. An item that
 * does not read as an entry (`of` gives undefined) is kept whatever the filter.
 *
 * The agent of an entry of a question's life is the identity that asked it, read from the question's `question.asked`
 * entry anywhere in `items` (so entries from before and after an upgrade are picked alike). `agentUnknown` counts the
 * entries in the run whose question's asked entry is not there (asked before the log began, a row lost, L7): those are
 * picked by the agentId they carry, which an older entry may hold as a kind or not at all.
 */
export function pickEntries<T>(p: Params<'audit.export'>, items: T[], of: (item: T) => AuditEntry | undefined): { chosen: T[]; agentUnknown: number } {
  const since = p.since ?? -Infinity;
  const until = p.until ?? Infinity;
  const found = items.findIndex((i) => (of(i)?.atMs ?? -Infinity) >= since);
  const first = found < 0 ? items.length : found;
  const last = items.findLastIndex((i) => (of(i)?.atMs ?? Infinity) <= until);
  const askers = p.agentId === undefined ? new Map<string, string>() : askersOf(items.map(of));
  let agentUnknown = 0;
  const agentOf = (e: AuditEntry): string | undefined => {
    if (e.questionId === undefined || OWN_AGENT.has(e.event)) return e.agentId;
    const asker = askers.get(e.questionId);
    if (asker !== undefined) return asker;
    if (namesItsAsker(e)) return e.agentId;
    agentUnknown++;
    return e.agentId;
  };
  const chosen = items.filter((item, k) => {
    const e = of(item);
    if (e === undefined) return true;
    if (k < first || k > last || (p.sessionKey !== undefined && e.sessionKey !== p.sessionKey)) return false;
    return p.agentId === undefined || agentOf(e) === p.agentId;
  });
  return { chosen, agentUnknown };
}

/** The manifest's filter: what was asked, and with `--agent` how many entries it could not tell (pickEntries). */
export const filterOf = (p: Params<'audit.export'>, agentUnknown = 0) => ({
  ...(p.since !== undefined ? { since: p.since } : {}),
  ...(p.until !== undefined ? { until: p.until } : {}),
  ...(p.sessionKey ? { sessionKey: p.sessionKey } : {}),
  ...(p.agentId ? { agentId: p.agentId } : {}),
  ...(agentUnknown > 0 ? { agentUnknown } : {}),
});
