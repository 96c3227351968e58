/**
 * E9: a routed question's route in words for the dock's header row: who it waits for now, who the next step reaches,
 * and the steps the question expires before. Pure: the clock and the names are passed in.
 */
import { totalSteps } from './plan.ts';
import type { RouteState } from './state.ts';
import { reach, type TargetContext } from './targets.ts';
import type { Escalation, EscalationStep } from './types.ts';

export interface RouteView {
  /** "ops", "Ana": a group by its name, anyone else by the display name of whom the target reaches. */
  waitsFor: string[];
  /** The next step's targets named the same way, when it runs before the question expires. */
  next?: string[];
  /** Each step the question expires before, its targets named the same way and joined ("ops", "Ana, Bo"). */
  unreached: string[];
}

export interface ViewInput {
  route: RouteState;
  escalation: Escalation;
  targets: TargetContext;
  /** When the question expires; null: it waits without end. */
  expiresAtMs: number | null;
  nowMs: number;
  displayName: (identity: string) => string;
}

/**
 * A step's targets in words, as they reach at `atMs`: a group by its name, a person (also through a schedule) by name.
 * `reached`: whom its targets other than groups reached when it ran, named instead of who they reach at `atMs`.
 */
function labelsOf(step: EscalationStep, atMs: number, input: ViewInput, reached?: readonly string[]): string[] {
  const labels: string[] = [];
  for (const target of step.notify) {
    const group = /^group:(.+)$/.exec(target);
    const named = group ? [group[1]] : (reached ?? reach([target], atMs, input.targets).identities).map(input.displayName);
    for (const label of named) if (!labels.includes(label)) labels.push(label);
  }
  return labels;
}

export function describeRoute(input: ViewInput): RouteView {
  const { route, escalation } = input;
  const stepOf = (s: number) => escalation.steps[s % escalation.steps.length];
  const current = stepOf(route.step);
  // The running step names whom it notified, not whom its schedules reach now (a shift may have handed over since).
  const view: RouteView = { waitsFor: labelsOf(current, input.nowMs, input, route.stepReached), unreached: [] };
  if (route.nextAtMs === undefined) return view;
  const expires = input.expiresAtMs ?? Infinity;
  let atMs = route.nextAtMs;
  for (let s = route.step + 1; s < totalSteps(escalation); s++) {
    const step = stepOf(s);
    const labels = labelsOf(step, atMs, input);
    if (atMs >= expires) view.unreached.push(labels.join(', '));
    else if (s === route.step + 1) view.next = labels;
    // A step that reaches nobody then (a schedule gap) is passed over at once.
    if (reach(step.notify, atMs, input.targets).identities.length > 0) atMs += step.waitMs;
  }
  return view;
}
