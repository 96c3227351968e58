import type { Params, Result } from '../protocol/index.ts';
import type { Clock } from './clock.ts';
import { isTerminal } from './question-records.ts';
import type { StoredQuestion } from './store/types.ts';

type WaitResult = Result<'question.waitAnswer'>;
type Waiter = (q: StoredQuestion) => void;

function waitResult(q: StoredQuestion, includeResolutionId: boolean | undefined): WaitResult {
  return {
    status: q.status,
    ...(q.answers ? { answers: q.answers } : {}),
    ...(q.reason !== undefined ? { reason: q.reason } : {}),
    ...(includeResolutionId && q.resolutionId !== undefined ? { resolutionId: q.resolutionId } : {}),
  };
}

/** Q4: askers waiting for an outcome, woken after the commit that ended their question. */
export class AnswerWaiters {
  private readonly byQuestion = new Map<string, Set<Waiter>>();

  constructor(private readonly clock: Clock) {}

  /** Answers at once when terminal or when the caller will not wait; otherwise on the outcome, its own timeout, or abort. */
  wait(q: StoredQuestion, p: Params<'question.waitAnswer'>, signal: AbortSignal): WaitResult | Promise<WaitResult> {
    if (isTerminal(q) || p.timeoutMs === 0) return isTerminal(q) ? waitResult(q, p.includeResolutionId) : { status: 'pending' };
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<WaitResult>((resolve, reject) => {
      let set = this.byQuestion.get(q.id);
      if (!set) this.byQuestion.set(q.id, (set = new Set()));
      const waiters = set;
      const cleanup = () => {
        waiters.delete(waiter);
        if (waiters.size === 0 && this.byQuestion.get(q.id) === waiters) this.byQuestion.delete(q.id);
        if (timer) this.clock.clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = (rec) => {
        cleanup();
        resolve(waitResult(rec, p.includeResolutionId));
      };
      const onAbort = () => {
        cleanup();
        reject(signal.reason);
      };
      const timer =
        p.timeoutMs !== undefined
          ? this.clock.setTimeout(() => {
              cleanup();
              resolve({ status: 'pending' });
            }, p.timeoutMs)
          : undefined;
      waiters.add(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Whether anyone on this gateway waits for question `id`. */
  waiting(id: string): boolean {
    return this.byQuestion.has(id);
  }

  wake(q: StoredQuestion): void {
    const set = this.byQuestion.get(q.id);
    if (!set) return;
    for (const waiter of [...set]) waiter(q);
  }
}
