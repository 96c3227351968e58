import type { Result } from '../../protocol/index.ts';
import type { Clock } from '../infra/clock.ts';
import type { StoredSecretRequest } from '../store/types.ts';
import { Waiters, type Cancellation } from '../net/waiters.ts';

type WaitResult = Result<'secret.waitResult'>;

const outcome = (r: StoredSecretRequest): WaitResult => ({ status: r.status, name: r.name });

/** K1 `secret.waitResult`: askers waiting for a request's outcome, woken after the commit that ended it. */
export class SecretWaiters {
  private readonly waiters: Waiters<StoredSecretRequest>;
  /** Waits being set up (the request is being read): an outcome heard meanwhile is kept for them (as AnswerWaiters). */
  private readonly early = new Map<string, { count: number; outcome?: StoredSecretRequest }>();

  constructor(clock: Clock) {
    this.waiters = new Waiters(clock);
  }

  wait(r: StoredSecretRequest, timeoutMs: number | undefined, cancellation: Cancellation): WaitResult | Promise<WaitResult> {
    if (r.status !== 'pending' || timeoutMs === 0) return outcome(r);
    return this.waiters.wait(r.id, timeoutMs, cancellation, outcome, () => outcome(r));
  }

  /** Before reading request `id` for a wait: `outcome` is what was heard of it since; `done` once the wait is set. */
  expect(id: string): { outcome(): StoredSecretRequest | undefined; done(): void } {
    let slot = this.early.get(id);
    if (!slot) this.early.set(id, (slot = { count: 0 }));
    slot.count++;
    const held = slot;
    return {
      outcome: () => held.outcome,
      done: () => {
        if (--held.count === 0 && this.early.get(id) === held) this.early.delete(id);
      },
    };
  }

  /** D2: a request ended on any gateway; its event tells all a waiter gets (status and name, never the value). */
  heard(told: { id: string; name: string; status: StoredSecretRequest['status'] }): void {
    if (told.status !== 'pending' && (this.waiters.waiting(told.id) || this.early.has(told.id))) this.wake(told as StoredSecretRequest);
  }

  wake(r: StoredSecretRequest): void {
    const slot = this.early.get(r.id);
    if (slot) slot.outcome = r;
    this.waiters.wake(r.id, r);
  }
}
