/**
 * E1: which route a question follows. Routes are tried in order; the first that matches wins, unless it says
 * `continue`, in which case the next matching routes are tried too. Each setting (`escalation`, `quorum`) comes from
 * the first matching route that sets it, so a `continue` route can add a quorum to whatever route follows.
 */
import type { ToolMatcher, ToolRequest } from './tool-matcher.ts';
import type { AskKind, Route } from './types.ts';

/** What is known about the question when it is asked. */
export interface AskFacts {
  kind: AskKind;
  agent?: string;
  /** `hook:claude-code`, `hook:codex`, `mcp-proxy:<server>`, `sdk`, `mcp`, `cli`. */
  source?: string;
  session?: string;
  /** For an approval: the tool and its input. */
  tool?: ToolRequest;
}

export interface RouteChoice {
  /** The indexes of the routes that matched, in order. */
  routes: number[];
  escalation: string;
  /** Only for approvals. */
  quorum?: number;
}

/** `*` stands for any run of characters, `?` for one; everything else is itself. */
export function globMatches(glob: string, text: string): boolean {
  const body = glob.split('').map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, 's').test(text);
}

function matches(route: Route, facts: AskFacts, tools: ToolMatcher): boolean {
  const m = route.match;
  if (m.kind && !m.kind.includes(facts.kind)) return false;
  for (const key of ['agent', 'source', 'session'] as const) {
    const glob = m[key];
    const value = facts[key];
    if (glob !== undefined && (value === undefined || !globMatches(glob, value))) return false;
  }
  if (m.tool !== undefined && (facts.kind !== 'approval' || !facts.tool || !tools.matches(m.tool, facts.tool))) return false;
  return true;
}

/** The route the question follows, or null: not routed (it goes to everyone who may see it, as without routing). */
export function chooseRoute(routes: readonly Route[], facts: AskFacts, tools: ToolMatcher): RouteChoice | null {
  const matched: number[] = [];
  let escalation: string | undefined;
  let quorum: number | undefined;
  for (const route of routes) {
    if (!matches(route, facts, tools)) continue;
    matched.push(route.index);
    escalation ??= route.escalation;
    quorum ??= route.quorum;
    if (!route.continue) break;
  }
  if (escalation === undefined) return null;
  return { routes: matched, escalation, ...(quorum !== undefined && facts.kind === 'approval' ? { quorum } : {}) };
}
