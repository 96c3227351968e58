import type { Params, Result } from '../../protocol/index.ts';
import type { Clock } from '../infra/clock.ts';
import { isTerminal } from './question-records.ts';
import type { StoredQuestion } from '../store/types.ts';
import { Waiters, type Cancellation } from '../hub/waiters.ts';

type WaitResult = Result<'question.waitAnswer'>;

/** What a wait needs of its question. */
export type WaitedQuestion = Pick<StoredQuestion, 'id' | 'status' | 'answers' | 'reason' | 'resolutionId'> & { receipt?: string };

function waitResult(q: WaitedQuestion, includeResolutionId: boolean | undefined): WaitResult {
  return {
    status: q.status,
    ...(q.answers ? { answers: q.answers } : {}),
    ...(q.reason !== undefined ? { reason: q.reason } : {}),
    ...(includeResolutionId && q.resolutionId !== undefined ? { resolutionId: q.resolutionId } : {}),
    ...(q.receipt !== undefined ? { receipt: q.receipt } : {}),
  };
}

const stillPending = (): WaitResult => ({ status: 'pending' });

/** Past how many "a waiter wants the resolutionId" marks the oldest one nobody waits on any more is dropped. */
const WANTED_KEPT = 10_000;

/** Q4: askers waiting for an outcome, woken after the commit that ended their question. */
export class AnswerWaiters {
  private readonly waiters: Waiters<StoredQuestion>;
  /** Questions some waiter asked `includeResolutionId` for (until they are woken): only the record has it. */
  private readonly wantResolutionId = new Set<string>();

  constructor(clock: Clock) {
    this.waiters = new Waiters(clock);
  }

  /** Answers at once when terminal or when the caller will not wait; otherwise on the outcome, its own timeout, or cancellation. */
  wait(q: WaitedQuestion, p: Params<'question.waitAnswer'>, cancellation: Cancellation): WaitResult | Promise<WaitResult> {
    if (isTerminal(q)) return waitResult(q, p.includeResolutionId);
    if (p.timeoutMs === 0) return stillPending();
    if (p.includeResolutionId) this.wantsResolutionId(q.id);
    return this.waiters.wait(q.id, p.timeoutMs, cancellation, (done) => waitResult(done, p.includeResolutionId), stillPending);
  }

  /**
   * Before reading question `id` for a wait: `outcome` is what was heard of it since (if anything), to be used over a
   * read that still says pending; call `done` once the wait is registered or refused.
   */
  expect(id: string, includeResolutionId: boolean | undefined): { outcome(): StoredQuestion | undefined; done(): void } {
    const slot = this.waiters.expect(id);
    if (includeResolutionId) this.wantsResolutionId(id);
    return {
      outcome: slot.outcome,
      done: () => {
        if (slot.done() && !this.waiters.registered(id)) this.wantResolutionId.delete(id);
      },
    };
  }

  /** Whether anyone on this gateway waits for question `id`, or is about to. */
  waiting(id: string): boolean {
    return this.waiters.waiting(id);
  }

  /** Kept until the question is woken; a waiter that timed out leaves its id behind, so the oldest go past a bound. */
  private wantsResolutionId(id: string): void {
    this.wantResolutionId.add(id);
    if (this.wantResolutionId.size <= WANTED_KEPT) return;
    const oldest = this.wantResolutionId.values().next().value!;
    if (!this.waiters.waiting(oldest)) this.wantResolutionId.delete(oldest);
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
