import { addressBlock } from './address-block.ts';

/** S4 defaults: 10 failed connects from one address within a minute lock that address out until the minute passes. */
export const DEFAULT_LOGIN_LIMIT = { maxFailures: 10, windowMs: 60_000 };
export type LoginLimit = typeof DEFAULT_LOGIN_LIMIT;

/** Addresses remembered at most; beyond it the stalest go first, so a spray of addresses cannot grow memory. */
const MAX_ADDRESSES = 10_000;

/**
 * S4: failed `connect` attempts per remote address in a sliding window. Refused attempts are not counted again, so the
 * lock-out ends when the window has passed the failures that caused it, and `retryAfterMs` says exactly when. An IPv6
 * peer is counted by its /64 (`addressBlock`).
 */
export class LoginGuard {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: LoginLimit,
    private readonly now: () => number,
  ) {}

  /** null when this address may try; else how long until it may. */
  blockedFor(address: string): number | null {
    const times = this.recent(addressBlock(address));
    if (times.length < this.limit.maxFailures) return null;
    const oldestThatCounts = times[times.length - this.limit.maxFailures];
    return Math.max(1, oldestThatCounts + this.limit.windowMs - this.now());
  }

  /** Records one failure; returns how many this address has in the window now. */
  fail(peer: string): number {
    const address = addressBlock(peer);
    const times = this.recent(address);
    times.push(this.now());
    // Only the newest maxFailures ever matter.
    if (times.length > this.limit.maxFailures) times.splice(0, times.length - this.limit.maxFailures);
    this.failures.delete(address);
    this.failures.set(address, times);
    if (this.failures.size > MAX_ADDRESSES) this.failures.delete(this.failures.keys().next().value!);
    return times.length;
  }

  private recent(address: string): number[] {
    const times = this.failures.get(address);
    if (!times) return [];
    const since = this.now() - this.limit.windowMs;
    while (times.length > 0 && times[0] <= since) times.shift();
    if (times.length === 0) this.failures.delete(address);
    return times;
  }
}
