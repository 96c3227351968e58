import { resolve } from 'node:path';
import { routeToolMatcher } from '../../policy/index.ts';
import { emptyRouting, parseRouting, type RoutingConfig, type RoutingProblem } from '../../routing/index.ts';

/** E1: a routing block that does not validate; `askdock gateway` stops at start with it (exit 1). */
export class RoutingLoadError extends Error {
  constructor(
    message: string,
    readonly problems: RoutingProblem[],
  ) {
    super(message);
    this.name = 'RoutingLoadError';
  }
}

/**
 * E1: the config's `routing` block validated against the config's identities, `tool` by the policy's G1 grammar.
 * Without one nothing is routed. Throws RoutingLoadError naming every fault with its path.
 */
export function loadRouting(raw: unknown, identities: readonly string[], origin: { configFile?: string }): RoutingConfig {
  if (raw === undefined) return emptyRouting();
  const parsed = parseRouting(raw, { identities, tools: routeToolMatcher });
  if (parsed.ok) return parsed.routing;
  const where = origin.configFile ? resolve(origin.configFile) : 'config';
  const list = parsed.problems.map((p) => `${p.path}: ${p.problem}`).join('; ');
  throw new RoutingLoadError(`the routing block in ${where} is not valid (ROUTING_INVALID): ${list}`, parsed.problems);
}
