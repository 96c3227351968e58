import { advanceRoute, type RouteEnv } from '../../routing/index.ts';
import type { RouteState } from '../../protocol/index.ts';
import type { Tx } from '../hub/hub.ts';
import { dutyTimer, type ExpiryScheduler } from '../questions/question-timers.ts';
import type { StoredQuestion } from '../store/types.ts';
import type { RoutingParts } from './routing-room.ts';
import { recordRoute } from '../audit/route-entries.ts';
import { questionAudience } from '../questions/question-records.ts';

/** E2's reason for a question whose steps ran out. */
export const EXHAUSTED_REASON = 'escalation-exhausted';

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

  private nextAtMs(): Promise<number | null> {
    return this.parts.store.nextRouteMs();
  }

  /** The due steps, from the store's index of deadlines: a tick reads the due questions only, however many wait. */
  private async runDue(now: number): Promise<void> {
    let next = await this.nextAtMs();
    while (next !== null && next <= now) {
      // Read inside the transaction: another gateway may have answered or stepped some meanwhile (D3).
      const stepped = await this.parts.hub.commit(async (tx) => {
        const due = await this.parts.store.dueRoutes(now, STEPS_PER_COMMIT);
        for (const q of due) await this.stepIn(tx, q, now);
        return due.length;
      });
      if (stepped < STEPS_PER_COMMIT) return;
      next = await this.nextAtMs();
    }
  }

  /** One step of one question: the next targets notified, or `exhausted` applied (E2). */
  private async stepIn(tx: Tx, q: StoredQuestion, now: number): Promise<void> {
    const env = await this.envFor(q);
    if (!env) {
      // Its escalation left the config: it stays pending for those already notified.
      const { nextAtMs: _gone, ...route } = q.route as RouteState;
      return this.saveIn(tx, { ...q, route });
    }
    const change = advanceRoute(q.route as RouteState, now, env);
    const skipped = change.skipped.map((s) => ({ ...s, atMs: now }));
    const route: RouteState = { ...change.state, ...(skipped.length ? { skipped: [...(change.state as RouteState).skipped ?? [], ...skipped] } : {}) };
    const next = { ...q, route };
    if (change.exhausted === 'deny' || change.exhausted === 'expire') {
      // An approval's expired record reads as deny by timeout (G10); E2 names why.
      await this.parts.questions.finishIn(tx, next, { status: 'expired', reason: EXHAUSTED_REASON });
      return;
    }
    await this.saveIn(tx, next, change.notify);
    if (change.notify.length > 0) await recordRoute(this.parts.audit, 'question.escalated', q, now, { detail: { step: route.step, notified: change.notify.join(',') } });
  }

  private saveIn(tx: Tx, q: StoredQuestion, notify?: readonly string[]): Promise<void> {
    return saveRouteIn(this.parts, tx, q, notify);
  }
}

/** E11: a route changed: stored with its record, and `question.routed` to those who may see the question. */
export async function saveRouteIn(parts: Pick<RoutingParts, 'store'>, tx: Tx, q: StoredQuestion, notify: readonly string[] = []): Promise<void> {
  if (!q.route) return;
  parts.store.updateQuestion(q);
  const payload = { id: q.id, ...(q.sessionKey !== undefined ? { sessionKey: q.sessionKey } : {}), route: q.route, ...(notify.length ? { notify: [...notify] } : {}) };
  await tx.emit('question.routed', payload, questionAudience(q));
}
