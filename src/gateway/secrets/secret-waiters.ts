import type { Result } from '../../protocol/index.ts';
import type { Clock } from '../infra/clock.ts';
import type { StoredSecretRequest } from '../store/types.ts';
import { Waiters, type Cancellation } from '../hub/waiters.ts';

type WaitResult = Result<'secret.waitResult'>;

const outcome = (r: StoredSecretRequest): WaitResult => ({ status: r.status, name: r.name });

/** K1 `secret.waitResult`: askers waiting for a request's outcome, woken after the commit that ended it. */
export class SecretWaiters {
  private readonly waiters: Waiters<StoredSecretRequest>;

  constructor(clock: Clock) {
    this.waiters = new Waiters(clock);
  }

  wait(r: StoredSecretRequest, timeoutMs: number | undefined, cancellation: Cancellation): WaitResult | Promise<WaitResult> {
    if (r.status !== 'pending' || timeoutMs === 0) return outcome(r);
    return this.waiters.wait(r.id, timeoutMs, cancellation, outcome, () => outcome(r));
  }

  /** Before reading request `id` for a wait: `outcome` is what was heard of it since; `done` once the wait is set. */
  expect(id: string): { outcome(): StoredSecretRequest | undefined; done(): void } {
    return this.waiters.expect(id);
  }

  /** D2: a request ended on any gateway; its event tells all a waiter gets (status and name, never the value). */
  heard(told: { id: string; name: string; status: StoredSecretRequest['status'] }): void {
    if (told.status !== 'pending' && this.waiters.waiting(told.id)) this.wake(told as StoredSecretRequest);
  }

  wake(r: StoredSecretRequest): void {
    this.waiters.wake(r.id, r);
  }
}
