/** E10/E12: `askdock routing test` and `routing.test`: the route a described question would take and its plan, without asking anyone. */
import { chooseRoute, type AskFacts, type RouteChoice } from './match.ts';
import { planEscalation, type Plan } from './plan.ts';
import type { ToolMatcher } from './tool-matcher.ts';
import type { RoutingConfig } from './types.ts';

export interface DryRun {
  route: RouteChoice | null;
  atMs: number;
  expiresAtMs: number;
  steps: Plan['steps'];
  unreached: Plan['unreached'];
  /** Null when no route matches. */
  exhausted: Plan['exhausted'] | null;
}

export interface DryRunInput { routing: RoutingConfig; facts: AskFacts; atMs: number; timeoutMs: number; tools: ToolMatcher; identities?: readonly string[] }

export function dryRun({ routing, facts, atMs, timeoutMs, tools, identities }: DryRunInput): DryRun {
  const route = chooseRoute(routing.routes, facts, tools);
  const expiresAtMs = atMs + timeoutMs;
  if (!route) return { route, atMs, expiresAtMs, steps: [], unreached: [], exhausted: null };
  const plan = planEscalation({ choice: route, kind: facts.kind, createdAtMs: atMs, expiresAtMs, targets: { routing, ...(identities ? { identities } : {}) } });
  return { route, atMs, expiresAtMs, steps: plan.steps, unreached: plan.unreached, exhausted: plan.exhausted };
}
