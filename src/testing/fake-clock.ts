import type { Clock, TimerHandle } from '../gateway/infra/clock.ts';

type Timer = { id: number; at: number; fn: () => void };

/** A clock that moves only when told, so tests drive expiry and grace periods without waiting. */
export class FakeClock implements Clock {
  private readonly timers = new Map<number, Timer>();
  private nextId = 1;

  constructor(private t = 1_700_000_000_000) {}

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer = { id: this.nextId++, at: this.t + Math.max(0, ms), fn };
    this.timers.set(timer.id, timer);
    return { id: timer.id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete((handle as { id: number }).id);
  }

  /**
   * Resolves once a timer due at `at` is set: a test moves time only after the code it drives has armed its timer,
   * however long that takes on a busy machine.
   */
  async timerSet(at: number, timeoutMs = 15_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (![...this.timers.values()].some((timer) => timer.at === at)) {
      if (Date.now() > end) throw new Error(`no timer due at ${at} was set within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** Moves time forward, firing every timer that falls due, in order, at its own time. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      let next: Timer | undefined;
      for (const timer of this.timers.values()) if (timer.at <= end && (!next || timer.at < next.at || (timer.at === next.at && timer.id < next.id))) next = timer;
      if (!next) break;
      this.timers.delete(next.id);
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = end;
  }
}
