/** E1: the routing config once validated: durations in ms, time texts parsed, defaults filled. */
import type { Handoff, Rotation, Window } from './time-spec.ts';

/** What asks (PRODUCT E1), not Q12's kind of one question. */
export const ASK_KINDS = ['question', 'approval', 'elicitation', 'secret'] as const;
export type AskKind = (typeof ASK_KINDS)[number];

export const EXHAUSTED = ['deny', 'expire', 'keep'] as const;
export type Exhausted = (typeof EXHAUSTED)[number];

export interface Layer {
  members: string[];
  rotation: Rotation;
  handoff: Handoff;
  restrict: Window[];
  /** The first member's first shift begins at the first handoff at or after this instant; the layer covers nothing before it. */
  startMs?: number;
}
export interface Override { member: string; startMs: number; endMs: number }
export interface Schedule { name: string; timezone: string; layers: Layer[]; overrides: Override[] }

/** A target as written: `identity:<id>`, `group:<name>`, `schedule:<name>` or `session-owner`. */
export type Target = string;
export interface EscalationStep { notify: Target[]; waitMs: number }
export interface Escalation {
  name: string;
  steps: EscalationStep[];
  repeat: number;
  /** Absent: "deny" for approvals, "expire" for the rest (E2). */
  exhausted?: Exhausted;
  /** E4: how long an acknowledgement pauses escalation. */
  ackTimeoutMs: number;
}

export interface RouteMatch { kind?: AskKind[]; agent?: string; source?: string; session?: string; tool?: string }
export interface Route {
  /** Its place in `routing.routes`. */
  index: number;
  match: RouteMatch;
  escalation?: string;
  quorum?: number;
  continue: boolean;
}

export interface RoutingConfig {
  groups: Record<string, { members: string[] }>;
  schedules: Record<string, Schedule>;
  escalations: Record<string, Escalation>;
  routes: Route[];
}

/** A fault in the config: where (`routing.escalations.prod.steps[0].wait`) and what. */
export interface RoutingProblem { path: string; problem: string }

export const WAIT_MIN_MS = 5_000;
export const WAIT_MAX_MS = 24 * 3_600_000;
export const ACK_TIMEOUT_MS = 30 * 60_000;
export const REPEAT_MAX = 10;
