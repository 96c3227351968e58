/** E1-E3: what the routing core needs of one question: its facts for a route, and who its targets reach. */
import { routeToolMatcher } from '../../policy/index.ts';
import type { Params, RouteState } from '../../protocol/index.ts';
import { chooseRoute, describeRoute, exhaustedAction, type AskFacts, type AskKind, type RouteEnv, type RoutingConfig } from '../../routing/index.ts';
import type { Clock } from '../infra/clock.ts';
import type { Authenticator, Identity } from '../auth.ts';
import { canSeeQuestion, type QuestionLike } from '../sessions/visibility.ts';
import type { StoredQuestion } from '../store/types.ts';

type AskParams = Pick<Params<'question.request'>, 'approval' | 'source' | 'elicitation'>;

/** E1: what asks. An approval (G11), an MCP server's elicitation (through the proxy or a hook), else ask_user. */
export function askKindOf(p: AskParams): AskKind {
  if (p.approval) return 'approval';
  // A proxy that predates the `elicitation` flag said so by its source alone.
  return p.elicitation || p.source?.startsWith('mcp-proxy:') ? 'elicitation' : 'question';
}

export function askFacts(identity: Identity, q: StoredQuestion, p: AskParams): AskFacts {
  return {
    kind: askKindOf(p),
    agent: identity.id,
    ...(p.source !== undefined ? { source: p.source } : {}),
    ...(q.sessionKey !== undefined ? { session: q.sessionKey } : {}),
    ...(p.approval ? { tool: { tool: p.approval.tool, input: p.approval.input } } : {}),
  };
}

export function chooseFor(routing: RoutingConfig, facts: AskFacts) {
  return chooseRoute(routing.routes, facts, routeToolMatcher);
}

/** What a route is kept with: a question, or a secret request seen as a privileged question (K1). */
export type Routable = QuestionLike & { route?: RouteState; approval?: unknown };

/** The escalation a routed question follows, and its targets as the question's viewers allow (A3: never widened). */
export function envOf(routing: RoutingConfig, auth: Authenticator, q: Routable, owner: string | undefined, asked?: AskKind): RouteEnv | undefined {
  const escalation = q.route ? routing.escalations[q.route.escalation] : undefined;
  if (!escalation) return undefined;
  const kind: AskKind = asked ?? (q.approval ? 'approval' : 'question');
  // E3: a target is a person who may answer: an agent (the asker, or an agent that made the session) is never notified.
  const person = (id: string) => auth.identityById(id)?.role === 'operator';
  return {
    escalation,
    kind,
    targets: {
      routing,
      ...(owner !== undefined && person(owner) ? { sessionOwner: owner } : {}),
      identities: auth.identityIds,
      maySee: (id) => {
        const who = auth.identityById(id);
        return who !== undefined && who.role === 'operator' && canSeeQuestion(who, q, owner);
      },
    },
  };
}

/**
 * E9: who a routed request (a question or a secret request) waits for, who is next and what it never reaches, by display
 * name (src/routing/view.ts), as routing.status gives them.
 */
export function routeInWords(auth: Authenticator, clock: Clock, env: RouteEnv | undefined, route: RouteState | undefined, expiresAtMs: number | null) {
  if (!env || !route) return {};
  const view = describeRoute({ route, escalation: env.escalation, targets: env.targets, expiresAtMs, nowMs: clock.now(), displayName: (id) => auth.displayName(id) });
  return { waitsFor: view.waitsFor, ...(view.next ? { next: view.next } : {}), ...(view.unreached.length ? { unreached: view.unreached } : {}) };
}

export { exhaustedAction };
