import type { Result } from '../../protocol/index.ts';
import type { Clock } from '../clock.ts';
import type { StoredSecretRequest } from '../store/types.ts';

type WaitResult = Result<'secret.waitResult'>;
type Waiter = (r: StoredSecretRequest) => void;

const outcome = (r: StoredSecretRequest): WaitResult => ({ status: r.status, name: r.name });

/** K1 `secret.waitResult`: askers waiting for a request's outcome, woken after the commit that ended it. */
export class SecretWaiters {
  private readonly byId = new Map<string, Set<Waiter>>();

  constructor(private readonly clock: Clock) {}

  wait(r: StoredSecretRequest, timeoutMs: number | undefined, signal: AbortSignal): WaitResult | Promise<WaitResult> {
    if (r.status !== 'pending' || timeoutMs === 0) return outcome(r);
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<WaitResult>((resolve, reject) => {
      let set = this.byId.get(r.id);
      if (!set) this.byId.set(r.id, (set = new Set()));
      const waiters = set;
      const cleanup = () => {
        waiters.delete(waiter);
        if (waiters.size === 0 && this.byId.get(r.id) === waiters) this.byId.delete(r.id);
        if (timer) this.clock.clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = (done) => {
        cleanup();
        resolve(outcome(done));
      };
      const onAbort = () => {
        cleanup();
        reject(signal.reason);
      };
      const timer = timeoutMs !== undefined ? this.clock.setTimeout(() => (cleanup(), resolve(outcome(r))), timeoutMs) : undefined;
      waiters.add(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  wake(r: StoredSecretRequest): void {
    for (const waiter of [...(this.byId.get(r.id) ?? [])]) waiter(r);
  }
}
