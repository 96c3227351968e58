import type { Params, Result } from '../../protocol/index.ts';
import type { Clock } from '../infra/clock.ts';
import { isTerminal } from './question-records.ts';
import type { StoredQuestion } from '../store/types.ts';
import { Waiters, type Cancellation } from '../net/waiters.ts';

type WaitResult = Result<'question.waitAnswer'>;

function waitResult(q: StoredQuestion, includeResolutionId: boolean | undefined): WaitResult {
  return {
    status: q.status,
    ...(q.answers ? { answers: q.answers } : {}),
    ...(q.reason !== undefined ? { reason: q.reason } : {}),
    ...(includeResolutionId && q.resolutionId !== undefined ? { resolutionId: q.resolutionId } : {}),
  };
}

const stillPending = (): WaitResult => ({ status: 'pending' });

/** Q4: askers waiting for an outcome, woken after the commit that ended their question. */
export class AnswerWaiters {
  private readonly waiters: Waiters<StoredQuestion>;
  /** Questions some waiter asked `includeResolutionId` for (until they are woken): only the record has it. */
  private readonly wantResolutionId = new Set<string>();

  constructor(clock: Clock) {
    this.waiters = new Waiters(clock);
  }

  /** Answers at once when terminal or when the caller will not wait; otherwise on the outcome, its own timeout, or cancellation. */
  wait(q: StoredQuestion, p: Params<'question.waitAnswer'>, cancellation: Cancellation): WaitResult | Promise<WaitResult> {
    if (isTerminal(q)) return waitResult(q, p.includeResolutionId);
    if (p.timeoutMs === 0) return stillPending();
    if (p.includeResolutionId) this.wantResolutionId.add(q.id);
    return this.waiters.wait(q.id, p.timeoutMs, cancellation, (done) => waitResult(done, p.includeResolutionId), stillPending);
  }

  /** Whether anyone on this gateway waits for question `id`. */
  waiting(id: string): boolean {
    return this.waiters.waiting(id);
  }

  /** Whether the outcome an event tells (status, answers, reason) is all its waiters need. */
  eventSuffices(id: string): boolean {
    return !this.wantResolutionId.has(id);
  }

  wake(q: StoredQuestion): void {
    this.wantResolutionId.delete(q.id);
    this.waiters.wake(q.id, q);
  }
}
