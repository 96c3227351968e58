/** A token bucket per connection: `burst` requests at once, refilled at `perSecond`. Real time, never the test clock. */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
  ) {
    this.tokens = burst;
  }

  /** Takes one token, or returns how many ms until one is available. */
  take(): { ok: true } | { ok: false; retryAfterMs: number } {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.max(1, Math.ceil(((1 - this.tokens) / this.perSecond) * 1000)) };
  }
}
