export type BackoffOptions = {
  /** The first wait (default 1 s). */
  initialMs?: number;
  /** No wait is longer (default 30 s). */
  maxMs?: number;
  /** Picks the wait at random in its upper half, so many clients that lost one gateway do not come back in step. */
  jitter?: boolean;
  random?: () => number;
};

/** How long to wait before try number `attempt` (1 for the first retry): doubling from `initialMs` up to `maxMs`. */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const initial = options.initialMs ?? 1000;
  const max = options.maxMs ?? 30_000;
  const base = Math.min(max, initial * 2 ** (Math.max(1, attempt) - 1));
  if (!options.jitter) return base;
  return Math.round(base / 2 + (options.random ?? Math.random)() * (base / 2));
}
