/** Time as the gateway sees it; tests pass a fake one to drive expiry and grace periods without waiting. */
export type TimerHandle = { readonly __timer: unique symbol } | object;

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Node caps timers at 2^31-1 ms; longer delays fire early and re-arm, which callers must tolerate. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    // Gateway timers must never keep a process alive on their own: close() owns shutdown.
    t.unref();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
