/**
 * Routing (PRODUCT E1-E10, PROTOCOL E11-E12): the framework-free core. Config validation, schedules, routes,
 * escalation planning and one question's route state, all pure (the clock is passed in).
 *
 * What the gateway wiring still needs:
 * - config: read `routing` in src/gateway/config.ts (today's zod object strips it) and call parseRouting with the
 *   identities' ids and the policy's rule checker; a fault stops `askdock gateway` at start (exit 1) with every path.
 * - route state (RouteState, E11) in the question record in both stores (SQLite and PostgreSQL) and its zod schema in
 *   src/protocol (question `route?`), set by startRoute in question.request's transaction.
 * - the escalation duty (D3): wake at the earliest `nextAtMs`, run advanceRoute once across gateways, survive restarts
 *   (a deadline passed while down runs on start), stop in the same transaction as the answer (E7); apply `exhausted`.
 * - eligibility in question.resolve (mayAnswer; FORBIDDEN with details.eligible), quorum via approve (E5: `{status:
 *   "pending", quorum}`), skips recorded.
 * - methods question.ack, question.handoff (drafts to the target), routing.status (onCallNow per schedule),
 *   routing.test (chooseRoute + planEscalation); event question.routed on every change.
 * - tool matching: swap simpleToolMatcher for src/policy's checkRuleText and matcher once w-policy lands.
 * - surfaces: Inbox/dock header ("For ops · to Ana in 4:12"), "I'm on it" everywhere, push to the step's people, TUI,
 *   channels, the On call page; resolvedBy and the escalation trail to the agent (E8).
 */
export { parseRouting, emptyRouting, formatProblems, type RoutingContext, type RoutingResult } from './config.ts';
export { parseDuration, formatDuration } from './duration.ts';
export { onCallAt, onCallNow, schedulesStatus, type OnCall, type OnCallNow } from './schedule.ts';
export { chooseRoute, globMatches, type AskFacts, type RouteChoice } from './match.ts';
export { simpleToolMatcher, requestOfRule, type ToolMatcher, type ToolRequest } from './tool-matcher.ts';
export { reach, type Skip, type SkipReason, type TargetContext } from './targets.ts';
export { dryRun, type DryRun, type DryRunInput } from './dry-run.ts';
export { planEscalation, exhaustedAction, type Plan, type PlannedStep, type PlanInput } from './plan.ts';
export {
  startRoute, advanceRoute, acknowledge, handOff, approve, mayAnswer,
  type RouteState, type RouteEnv, type RouteChange, type Refusal, type Actor, type Verdict,
} from './state.ts';
export { describeRoute, type RouteView, type ViewInput } from './view.ts';
export * from './types.ts';
