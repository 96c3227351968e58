import { AskdockError } from '../../protocol/index.ts';
import { backoffDelay } from '../../lib/backoff.ts';

/**
 * R3/P7 for a channel: a call whose unit of work the gateway could not save (its group was rolled back, the store
 * answered UNAVAILABLE) changed nothing, and a socket client would send it again with the same key. A channel has no
 * client to do that for the person who pressed or replied, so it goes again itself, a bounded number of times.
 */
export type TransientRetry = {
  /** Tries in all, the first included (default 4). */
  tries?: number;
  /** The first wait before a retry, doubling (default 200 ms, at most 2 s). */
  initialMs?: number;
  maxMs?: number;
  /** Told before each retry (for the log). */
  onRetry?: (err: AskdockError, attempt: number) => void;
};

/** The gateway's one transient outcome: `UNAVAILABLE` marked `retryable` (PROTOCOL error codes; src/client/resend.ts). */
export function isTransient(err: unknown): err is AskdockError {
  return err instanceof AskdockError && err.code === 'UNAVAILABLE' && err.retryable === true;
}

/**
 * Runs `attempt` until it settles with anything but a transient failure, or `tries` ran out (the last failure is
 * thrown). `attempt` must send the very same params each time, its idempotency key included, so a retry of a call
 * that was kept after all answers as the first did and nothing is stored twice.
 */
export async function retryTransient<T>(attempt: () => Promise<T>, opts: TransientRetry = {}): Promise<T> {
  const tries = Math.max(1, opts.tries ?? 4);
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isTransient(err) || n >= tries) throw err;
      opts.onRetry?.(err, n);
    }
    const wait = backoffDelay(n, { initialMs: opts.initialMs ?? 200, maxMs: opts.maxMs ?? 2000, jitter: true });
    await new Promise((done) => setTimeout(done, wait));
  }
}
