import { MAX_TIMER_MS, type Clock, type TimerHandle } from '../infra/clock.ts';

/**
 * Q7 expiry: one timer armed at the earliest pending expiresAtMs. Firing expires what is due and re-arms,
 * so expiry happens whether or not anyone waits, also for what ran out while the gateway was down.
 */
export class ExpiryScheduler {
  private handle: TimerHandle | null = null;
  private armedAt: number | null = null;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly nextExpiryMs: () => Promise<number | null>,
    /** Returns false when it failed: the scheduler then retries a second later instead of spinning. */
    private readonly expireDue: (nowMs: number) => Promise<boolean>,
  ) {}

  /** Sweeps what is already due, then arms for the next one. */
  start(): void {
    void this.fire();
  }

  /** Sweeps now, whatever is armed (a gateway that just took the duties over, D3). */
  sweepNow(): void {
    if (this.stopped) return;
    if (this.handle) this.clock.clearTimeout(this.handle);
    void this.fire();
  }

  /** A new question: re-arm only when it expires before the armed time. */
  noteExpiry(atMs: number | null): void {
    if (atMs === null || this.stopped) return;
    if (this.armedAt === null || atMs < this.armedAt) this.arm(atMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.handle) this.clock.clearTimeout(this.handle);
    this.handle = null;
    this.armedAt = null;
  }

  private arm(atMs: number | null): void {
    if (this.handle) this.clock.clearTimeout(this.handle);
    this.handle = null;
    this.armedAt = atMs;
    if (atMs === null || this.stopped) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, atMs - this.clock.now()));
    this.handle = this.clock.setTimeout(() => void this.fire(), delay);
  }

  private async fire(): Promise<void> {
    this.handle = null;
    this.armedAt = null;
    if (this.stopped) return;
    // The time the sweep runs at, a step after the timer fired: what fell due meanwhile goes in the same sweep.
    await undefined;
    const now = this.clock.now();
    let next: number | null;
    try {
      next = (await this.expireDue(now)) ? await this.nextExpiryMs() : now + 1000;
    } catch {
      // Reading failed (the callbacks log what they can): look again a second later.
      next = now + 1000;
    }
    if (this.stopped) return;
    // A new question may have armed an earlier time meanwhile.
    if (this.armedAt === null || (next !== null && next < this.armedAt)) this.arm(next);
  }
}

/** A duty's timer (Q7 expiry, E2 escalation): its two steps, each named for the log, and who does it. */
export type DutyTimer = {
  clock: Clock;
  /** Timer callbacks have no caller to report to: a failing store is logged, and the timer looks again a second later. */
  log: (what: string, err: unknown) => void;
  /** D3: whether this gateway does the duty now; where not, it looks again a second later. */
  held: () => boolean;
  next: { what: string; read: () => Promise<number | null> };
  due: { what: string; run: (nowMs: number) => Promise<void> };
};

/** An ExpiryScheduler for a duty: reads its next deadline and runs what is due, each failure logged, not thrown. */
export function dutyTimer({ clock, log, held, next, due }: DutyTimer): ExpiryScheduler {
  return new ExpiryScheduler(
    clock,
    async () => {
      try {
        return await next.read();
      } catch (err) {
        log(next.what, err);
        return clock.now() + 1000;
      }
    },
    async (now) => {
      if (!held()) return false;
      try {
        await due.run(now);
        return true;
      } catch (err) {
        log(due.what, err);
        return false;
      }
    },
  );
}

/**
 * Q7 requester-inactive: counts open connections per asking client; when the last one closes, a grace timer
 * starts, and a reconnect of the same client (same identity and client id) within it keeps its questions waiting.
 */
export class RequesterPresence {
  private readonly open = new Map<string, number>();
  private readonly timers = new Map<string, TimerHandle>();
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly graceMs: number,
    private readonly hasPending: (askedBy: string, clientId: string) => Promise<boolean>,
    private readonly giveUp: (askedBy: string, clientId: string) => Promise<void>,
  ) {}

  private key(askedBy: string, clientId: string): string {
    return `${askedBy}\u0000${clientId}`;
  }

  connected(askedBy: string, clientId: string): void {
    const key = this.key(askedBy, clientId);
    this.open.set(key, (this.open.get(key) ?? 0) + 1);
    const timer = this.timers.get(key);
    if (timer) {
      this.clock.clearTimeout(timer);
      this.timers.delete(key);
    }
  }

  async disconnected(askedBy: string, clientId: string): Promise<void> {
    const key = this.key(askedBy, clientId);
    const left = (this.open.get(key) ?? 1) - 1;
    if (left > 0) {
      this.open.set(key, left);
      return;
    }
    this.open.delete(key);
    // After shutdown the store is closed: the next start gives absent askers their grace period anyway.
    if (this.stopped) return;
    if (await this.hasPending(askedBy, clientId)) this.startGrace(askedBy, clientId);
  }

  /** Also used on gateway start: every asker with pending blocking questions starts absent. */
  startGrace(askedBy: string, clientId: string): void {
    const key = this.key(askedBy, clientId);
    if (this.stopped || (this.open.get(key) ?? 0) > 0 || this.timers.has(key)) return;
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(key);
      if ((this.open.get(key) ?? 0) === 0) void this.giveUp(askedBy, clientId);
    }, this.graceMs);
    this.timers.set(key, timer);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) this.clock.clearTimeout(timer);
    this.timers.clear();
  }
}
