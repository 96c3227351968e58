import { advanceRoute, type RouteChange, type RouteEnv } from '../../routing/index.ts';
import type { RouteState } from '../../protocol/index.ts';
import type { Tx } from '../hub/hub.ts';
import { dutyTimer, type ExpiryScheduler } from '../questions/question-timers.ts';
import type { StoredQuestion } from '../store/types.ts';
import type { RoutingParts } from './routing-room.ts';
import type { SecretRoutes } from './secret-routes.ts';
import { recordRoute, skipsOf } from '../audit/route-entries.ts';
import { questionAudience } from '../questions/question-records.ts';

/** E2's reason for a question whose steps ran out. */
export const EXHAUSTED_REASON = 'escalation-exhausted';

/** E11: a change's skips kept in the route (E3: a skipped target is recorded). */
export function withSkips(change: RouteChange, atMs: number): RouteState {
  if (change.skipped.length === 0) return change.state as RouteState;
  const prior = (change.state as RouteState).skipped ?? [];
  return { ...change.state, skipped: [...prior, ...change.skipped.map((s) => ({ ...s, atMs }))] };
}

/**
 * E2: one step of a route: the next targets to notify, or whether `exhausted` ends it (`deny` and `expire`). A route
 * whose escalation left the config (no env) stays pending for those already notified, with no deadline.
 */
export function stepRoute(route: RouteState, now: number, env: RouteEnv | undefined): { route: RouteState; notify: string[]; ends: boolean } {
  if (!env) {
    const { nextAtMs: _gone, ...kept } = route;
    return { route: kept, notify: [], ends: false };
  }
  const change = advanceRoute(route, now, env);
  return { route: withSkips(change, now), notify: change.notify, ends: change.exhausted === 'deny' || change.exhausted === 'expire' };
}

/** Steps taken in one transaction; more due ones go in the next. */
const STEPS_PER_COMMIT = 100;

/**
 * E2/E11 as a duty (D3): one timer at the earliest step deadline of the pending routed questions. Firing runs each
 * due question's next step once, in one transaction, on the gateway holding the duties; a deadline that passed while
 * the gateway was down runs on start. The route lives in the record, so an answer that ends the question ends its
 * escalation in the same transaction (E7): a finished question is no longer pending and never read here again.
 */
export class RouteDuty {
  private readonly timer: ExpiryScheduler;

  constructor(
    private readonly parts: RoutingParts,
    private readonly envFor: (q: StoredQuestion) => Promise<RouteEnv | undefined>,
    private readonly secrets: SecretRoutes,
  ) {
    const log = (what: string, err: unknown) => parts.log.error({ err }, `${what} failed`);
    this.timer = dutyTimer({
      clock: parts.clock,
      log,
      held: () => parts.dutyHeld(),
      next: { what: 'reading the next escalation step', read: () => this.nextAtMs() },
      due: { what: 'running escalation steps', run: (now) => this.runDue(now) },
    });
  }

  start(): void {
    this.timer.start();
  }

  stop(): void {
    this.timer.stop();
  }

  /** A route's deadline made or heard of: wake for it if it comes first. */
  note(atMs: number): void {
    this.timer.noteExpiry(atMs);
  }

  /** D3: this gateway just took the duties over: run what is due now. */
  sweepNow(): void {
    this.timer.sweepNow();
  }

  private async nextAtMs(): Promise<number | null> {
    const [question, secret] = await Promise.all([this.parts.store.nextRouteMs(), this.secrets.nextAtMs()]);
    return question === null ? secret : secret === null ? question : Math.min(question, secret);
  }

  /** The due steps, from the store's index of deadlines: a tick reads the due questions only, however many wait. */
  private async runDue(now: number): Promise<void> {
    // K1: routed secret requests are few (one per missing credential): read from the pending ones.
    // One failing secret step must not hold back every question's escalation.
    await this.secrets.runDue(now).catch((err: unknown) => this.parts.log.error({ err }, 'running the secret requests\' escalation steps failed'));
    let next = await this.parts.store.nextRouteMs();
    while (next !== null && next <= now) {
      // Read inside the transaction: another gateway may have answered or stepped some meanwhile (D3).
      const stepped = await this.parts.hub.commit(async (tx) => {
        const due = await this.parts.store.dueRoutes(now, STEPS_PER_COMMIT);
        for (const q of due) await this.stepIn(tx, q, now);
        return due.length;
      });
      if (stepped < STEPS_PER_COMMIT) return;
      next = await this.parts.store.nextRouteMs();
    }
  }

  /** One step of one question: the next targets notified, or `exhausted` applied (E2). */
  private async stepIn(tx: Tx, q: StoredQuestion, now: number): Promise<void> {
    const { route, notify, ends } = stepRoute(q.route as RouteState, now, await this.envFor(q));
    const next = { ...q, route };
    // An approval's expired record reads as deny by timeout (G10); E2 names why.
    if (ends) {
      await this.parts.questions.finishIn(tx, next, { status: 'expired', reason: EXHAUSTED_REASON });
      return;
    }
    await this.saveIn(tx, next, notify);
    const skips = skipsOf(route.skipped?.slice(q.route?.skipped?.length ?? 0));
    if (notify.length > 0 || skips.skipped) await recordRoute(this.parts.audit, 'question.escalated', q, now, { detail: { step: route.step, notified: notify.join(','), ...skips } });
  }

  private saveIn(tx: Tx, q: StoredQuestion, notify?: readonly string[]): Promise<void> {
    return saveRouteIn(this.parts, tx, q, notify);
  }
}

/**
 * E11: a route changed: stored with its record, and `question.routed` to those who may see the question; `acked` marks
 * an acknowledgement's own change, so its notice is said once whichever gateway hears it, after a restart or in a batch.
 */
export async function saveRouteIn(parts: Pick<RoutingParts, 'store'>, tx: Tx, q: StoredQuestion, notify: readonly string[] = [], acked = false): Promise<void> {
  if (!q.route) return;
  parts.store.updateQuestion(q);
  const payload = {
    id: q.id,
    ...(q.sessionKey !== undefined ? { sessionKey: q.sessionKey } : {}),
    route: q.route,
    ...(notify.length ? { notify: [...notify] } : {}),
    ...(acked ? { acked: true as const } : {}),
  };
  await tx.emit('question.routed', payload, questionAudience(q));
}
