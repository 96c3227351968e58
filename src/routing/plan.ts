/**
 * E2/E9/E10: the escalation a question would follow, worked out ahead: each step's time and the people it reaches
 * then, the steps the question's timeout comes before, and what happens when the steps run out. Pure: the clock is
 * the `createdAtMs` given.
 */
import type { RouteChoice } from './match.ts';
import { reach, type Skip, type TargetContext } from './targets.ts';
import type { AskKind, Escalation, Exhausted, Target } from './types.ts';

export interface PlannedStep {
  /** Counted across repeats: 0, 1, ... */
  step: number;
  /** The step of the escalation it runs (`routing.escalations.<name>.steps[index]`). */
  index: number;
  /** 0 for the first run through the steps, 1 for the first repeat, ... */
  round: number;
  atMs: number;
  targets: Target[];
  /** The people it reaches then. */
  notify: string[];
  /** E2: those of `notify` it does not notify again, its round having notified them at an earlier step; absent when none. */
  alreadyNotified?: string[];
  skipped: Skip[];
}

export interface Plan {
  escalation: string;
  quorum?: number;
  steps: PlannedStep[];
  /** Steps the question expires before (E9 "not reached before it expires"). */
  unreached: PlannedStep[];
  exhausted: { action: Exhausted; atMs: number; reached: boolean };
}

/** E2: what an exhausted escalation does when the config does not say: approvals are denied, the rest expire. */
export function exhaustedAction(escalation: Escalation, kind: AskKind): Exhausted {
  return escalation.exhausted ?? (kind === 'approval' ? 'deny' : 'expire');
}

export function totalSteps(escalation: Escalation): number {
  return escalation.steps.length * (escalation.repeat + 1);
}

export interface PlanInput {
  choice: RouteChoice;
  kind: AskKind;
  createdAtMs: number;
  /** When the question times out; absent: it waits without end. */
  expiresAtMs?: number;
  targets: TargetContext;
}

export function planEscalation(input: PlanInput): Plan {
  const escalation = input.targets.routing.escalations[input.choice.escalation];
  const expires = input.expiresAtMs ?? Infinity;
  const steps: PlannedStep[] = [];
  const unreached: PlannedStep[] = [];
  let t = input.createdAtMs;
  // Who the running round has notified: a step notifies each person once a round (state.ts).
  let roundSoFar: string[] = [];
  for (let s = 0; s < totalSteps(escalation); s++) {
    const index = s % escalation.steps.length;
    if (index === 0) roundSoFar = [];
    const { notify: targets, waitMs } = escalation.steps[index];
    const { identities, skipped } = reach(targets, t, input.targets);
    const already = identities.filter((i) => roundSoFar.includes(i));
    roundSoFar = [...roundSoFar, ...identities.filter((i) => !roundSoFar.includes(i))];
    const planned: PlannedStep = { step: s, index, round: Math.floor(s / escalation.steps.length), atMs: t, targets, notify: identities, ...(already.length ? { alreadyNotified: already } : {}), skipped };
    (t < expires ? steps : unreached).push(planned);
    // A step that reaches nobody (a schedule gap) is skipped at once.
    if (identities.length > 0) t += waitMs;
  }
  return {
    escalation: escalation.name,
    ...(input.choice.quorum !== undefined ? { quorum: input.choice.quorum } : {}),
    steps,
    unreached,
    exhausted: { action: exhaustedAction(escalation, input.kind), atMs: t, reached: t < expires },
  };
}
