/**
 * E2-E6, E11: one routed question's route state, as PROTOCOL E11 shapes it, and its changes as pure functions of the
 * state, the config and the time given. Each change returns the new state and what the gateway should do about it
 * (notify, record skips, end the question); the state given is never changed.
 */
import { exhaustedAction, totalSteps } from './plan.ts';
import { reach, type Skip, type TargetContext } from './targets.ts';
import type { AskKind, Escalation, Exhausted } from './types.ts';

export interface RouteState {
  escalation: string;
  /** The step last run, counted across repeats. */
  step: number;
  notified: string[];
  /**
   * E2: who the current repeat of the steps has notified so far, by identity, as each of its steps found them when it
   * ran; absent in the first run through the steps, where `notified` says it.
   */
  roundNotified?: string[];
  /** The step that last wrote `roundNotified`: a list some other code carried past a step it did not write is not used. */
  roundStep?: number;
  /**
   * E9: whom the running step's people and schedules (its targets other than groups) reached when it ran, by identity,
   * for the dock to name; absent in a route stored before this was kept.
   */
  stepReached?: string[];
  /** When the next step runs (or the steps run out); absent once they have. */
  nextAtMs?: number;
  ackedBy?: { identity: string; atMs: number; untilMs: number };
  quorum?: { needed: number; approvals: { identity: string; surface: string; atMs: number }[] };
  handoffs?: { from: string; to: string; note?: string; atMs: number }[];
  /** Who may answer besides operator.admin (E3). */
  eligible: string[];
}

export interface RouteEnv { escalation: Escalation; kind: AskKind; targets: TargetContext }

export interface RouteChange {
  state: RouteState;
  /** People to notify now (not notified before). */
  notify: string[];
  skipped: Skip[];
  /** The steps ran out: what happens to the question. */
  exhausted?: Exhausted;
}

export type Refusal = { ok: false; code: 'FORBIDDEN' | 'INVALID_REQUEST'; message: string; eligible?: string[] };

const union = (a: readonly string[], b: readonly string[]) => [...a, ...b.filter((x) => !a.includes(x))];

/**
 * E2: who step `s` must not notify again: everyone notified so far in the first run through the steps; in a repeat,
 * those its round notified already. A round's people are the ones its steps reached when each ran, never worked out again
 * at a later time (a schedule's shift may have handed over since).
 */
function notifiedInRound(state: RouteState, s: number, nowMs: number, env: RouteEnv): string[] {
  const n = env.escalation.steps.length;
  if (s < n) return state.notified;
  if (Math.floor(s / n) !== Math.floor(state.step / n)) return [];
  // Kept by the step last run: who the round notified.
  if (state.roundNotified && state.roundStep === state.step) return state.roundNotified;
  // A route stored before rounds were kept, or run since by a gateway that does not keep them (a cluster mid-upgrade
  // copies the list on without writing it): its round's earlier steps as they reach now, the best left to know.
  return env.escalation.steps.slice(0, s % n).flatMap((step) => reach(step.notify, nowMs, env.targets).identities);
}

/** Runs step `from` at `nowMs`, and the next ones at once while a step reaches nobody. */
function runFrom(state: RouteState, from: number, nowMs: number, env: RouteEnv): RouteChange {
  const skipped: Skip[] = [];
  for (let s = from; s < totalSteps(env.escalation); s++) {
    const step = env.escalation.steps[s % env.escalation.steps.length];
    const r = reach(step.notify, nowMs, env.targets);
    skipped.push(...r.skipped);
    if (r.identities.length === 0) continue;
    // A repeat runs the steps again (E2): their people are notified again; within a round, only the new ones are.
    const before = notifiedInRound(state, s, nowMs, env);
    const notify = r.identities.filter((i) => !before.includes(i));
    const round = s >= env.escalation.steps.length ? { roundNotified: union(before, notify), roundStep: s } : {};
    const stepReached = reach(step.notify.filter((t) => !t.startsWith('group:')), nowMs, env.targets).identities;
    const next = { ...state, ...round, step: s, stepReached, notified: union(state.notified, notify), eligible: union(state.eligible, notify), nextAtMs: nowMs + step.waitMs };
    return { state: next, notify, skipped };
  }
  const { nextAtMs: _done, ...rest } = state;
  const last = Math.max(state.step, totalSteps(env.escalation) - 1);
  // The last step ran here and reached nobody: it names nobody by name.
  const reached = last !== state.step ? { stepReached: [] } : {};
  return { state: { ...rest, ...reached, step: last }, notify: [], skipped, exhausted: exhaustedAction(env.escalation, env.kind) };
}

/** E2: a routed question starts at its first step; `quorum` only for approvals (E5). */
export function startRoute(env: RouteEnv, nowMs: number, quorum?: number): RouteChange {
  const initial: RouteState = {
    escalation: env.escalation.name,
    step: 0,
    notified: [],
    eligible: [],
    ...(quorum !== undefined && env.kind === 'approval' ? { quorum: { needed: quorum, approvals: [] } } : {}),
  };
  return runFrom(initial, 0, nowMs, env);
}

/** E2: the next step, once its time has come; before that, nothing changes. A late call runs one step, not every missed one. */
export function advanceRoute(state: RouteState, nowMs: number, env: RouteEnv): RouteChange {
  if (state.nextAtMs === undefined || nowMs < state.nextAtMs) return { state, notify: [], skipped: [] };
  const { ackedBy, ...rest } = state;
  const kept = ackedBy && ackedBy.untilMs > nowMs ? { ...rest, ackedBy } : rest;
  return runFrom(kept, state.step + 1, nowMs, env);
}

/** E3: everyone notified so far (handoff targets among them), and operator.admin. */
export function mayAnswer(state: RouteState, identity: string, isAdmin: boolean): boolean {
  return isAdmin || state.eligible.includes(identity);
}

function refuse(state: RouteState, identity: string): Refusal {
  return { ok: false, code: 'FORBIDDEN', message: `${identity} may not answer this question: it waits for ${state.eligible.join(', ') || 'nobody yet'}`, eligible: state.eligible };
}

export interface Actor { identity: string; isAdmin: boolean }

/**
 * E4: "I'm on it" pauses escalation for the escalation's ackTimeout from now: the step's deadline moves by the time
 * the pause adds, so when it ends escalation goes on from where it was; a step already due runs when the pause ends.
 */
export function acknowledge(state: RouteState, by: Actor, nowMs: number, env: RouteEnv): { ok: true; state: RouteState } | Refusal {
  if (!mayAnswer(state, by.identity, by.isAdmin)) return refuse(state, by.identity);
  const untilMs = nowMs + env.escalation.ackTimeoutMs;
  const pausedUntil = state.ackedBy && state.ackedBy.untilMs > nowMs ? state.ackedBy.untilMs : nowMs;
  const added = untilMs - pausedUntil;
  return {
    ok: true,
    state: { ...state, ackedBy: { identity: by.identity, atMs: nowMs, untilMs }, ...(state.nextAtMs !== undefined ? { nextAtMs: Math.max(state.nextAtMs + added, untilMs) } : {}) },
  };
}

/** E6: someone who may answer passes the question to a person or a group, who are notified and may answer. */
export function handOff(state: RouteState, by: Actor, to: string, note: string | undefined, nowMs: number, env: RouteEnv): ({ ok: true; reached: string[] } & RouteChange) | Refusal {
  if (!mayAnswer(state, by.identity, by.isAdmin)) return refuse(state, by.identity);
  if (!/^(identity|group):./.test(to)) return { ok: false, code: 'INVALID_REQUEST', message: `to: must be "identity:<id>" or "group:<name>", got "${to}"` };
  const r = reach([to], nowMs, env.targets);
  if (r.skipped.some((s) => s.reason === 'unknown-target')) return { ok: false, code: 'INVALID_REQUEST', message: `to: unknown target "${to}"` };
  if (r.identities.length === 0) return { ok: false, code: 'INVALID_REQUEST', message: `to: nobody in "${to}" may see this question` };
  const notify = r.identities.filter((i) => !state.notified.includes(i));
  const handoff = { from: by.identity, to, ...(note ? { note } : {}), atMs: nowMs };
  return {
    ok: true,
    state: {
      ...state,
      // E2: someone a hand-off notified in a repeat is not notified again by that round's later steps.
      ...(state.roundNotified ? { roundNotified: union(state.roundNotified, notify) } : {}),
      notified: union(state.notified, notify),
      eligible: union(state.eligible, r.identities),
      handoffs: [...(state.handoffs ?? []), handoff],
    },
    notify,
    skipped: r.skipped,
    reached: r.identities,
  };
}

export type Verdict = 'allowed' | 'denied' | 'pending';

/**
 * E5: an answer to a routed approval. Without a quorum the first eligible answer decides. With one, Allows count once
 * per identity (two surfaces of one person are one approval) until `needed`; the first Deny denies.
 */
export function approve(state: RouteState, by: Actor, behavior: 'allow' | 'deny', surface: string, nowMs: number): ({ ok: true; verdict: Verdict; state: RouteState }) | Refusal {
  if (!mayAnswer(state, by.identity, by.isAdmin)) return refuse(state, by.identity);
  if (behavior === 'deny') return { ok: true, verdict: 'denied', state };
  if (!state.quorum) return { ok: true, verdict: 'allowed', state };
  const { needed, approvals } = state.quorum;
  const counted = approvals.some((a) => a.identity === by.identity) ? approvals : [...approvals, { identity: by.identity, surface, atMs: nowMs }];
  const next = { ...state, quorum: { needed, approvals: counted } };
  return { ok: true, verdict: counted.length >= needed ? 'allowed' : 'pending', state: next };
}
