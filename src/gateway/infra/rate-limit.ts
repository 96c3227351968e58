import type { Role } from '../../protocol/index.ts';

/** `burst` at once, refilled at `perSecond`. */
export type Rate = { burst: number; perSecond: number };
export type RoleRates = Record<Role, Rate>;

/**
 * Requests per identity, across all its connections (S4/S5). Far above what people and agents send (a person's UI sends
 * a few a second, an agent with several tools in parallel a few dozen), so scripts, imports and test suites that drive one
 * identity hard are never refused, while a runaway loop still is.
 */
export const DEFAULT_REQUEST_LIMITS: RoleRates = {
  operator: { burst: 2000, perSecond: 500 },
  agent: { burst: 4000, perSecond: 1000 },
};

/** Frames per connection, counted before they are parsed; a frame costs 1 plus 1 per FRAME_COST_BYTES it carries. */
export const DEFAULT_FRAME_LIMIT: Rate = { burst: 10_000, perSecond: 5000 };
export const FRAME_COST_BYTES = 16 * 1024;

/** What one frame of `bytes` costs from the frame budget: parsing grows with size. */
export const frameCost = (bytes: number): number => 1 + Math.floor(bytes / FRAME_COST_BYTES);

/** A token bucket on real time (never the test clock: a fake clock that jumps hours would refill it at once). */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();

  constructor(private readonly rate: Rate) {
    this.tokens = rate.burst;
  }

  private refill(): void {
    const now = performance.now();
    this.tokens = Math.min(this.rate.burst, this.tokens + ((now - this.last) / 1000) * this.rate.perSecond);
    this.last = now;
  }

  /** Takes `cost` tokens if there are that many (a cost above the burst needs a full bucket). */
  tryTake(cost = 1): boolean {
    this.refill();
    const need = Math.min(cost, this.rate.burst);
    if (this.tokens < need) return false;
    this.tokens -= need;
    return true;
  }

  /**
   * How long until `cost` tokens are there: at least one token's worth of refill, so clients told to wait never
   * come back in a 1 ms loop that a busy bucket refuses again.
   */
  waitMs(cost = 1): number {
    this.refill();
    const need = Math.min(cost, this.rate.burst);
    const exact = ((need - this.tokens) / this.rate.perSecond) * 1000;
    return Math.max(Math.ceil(exact), Math.ceil(1000 / this.rate.perSecond), 1);
  }

  /** One request: ok, or how long to wait. */
  take(cost = 1): { ok: true } | { ok: false; retryAfterMs: number } {
    return this.tryTake(cost) ? { ok: true } : { ok: false, retryAfterMs: this.waitMs(cost) };
  }
}

/** One bucket per identity, shared by its connections: more sockets do not buy more requests. */
export class RequestLimiter {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(private readonly rates: RoleRates) {}

  take(identity: { id: string; role: Role }): { ok: true } | { ok: false; retryAfterMs: number } {
    let bucket = this.buckets.get(identity.id);
    if (!bucket) this.buckets.set(identity.id, (bucket = new TokenBucket(this.rates[identity.role])));
    return bucket.take();
  }
}

/** The gateway's limits from its options and config: one `rateLimit` applies to every role. */
export function requestRates(rateLimit: Rate | Partial<RoleRates> | undefined): RoleRates {
  if (!rateLimit) return DEFAULT_REQUEST_LIMITS;
  if ('burst' in rateLimit) return { operator: rateLimit as Rate, agent: rateLimit as Rate };
  return { ...DEFAULT_REQUEST_LIMITS, ...rateLimit };
}

/** Frames must never be the tighter limit: a client within its request limit is never slowed by the frame limit. */
export function frameRate(requests: RoleRates, given?: Rate): Rate {
  if (given) return given;
  const top = (k: keyof Rate) => Math.max(DEFAULT_FRAME_LIMIT[k], 2 * requests.operator[k], 2 * requests.agent[k]);
  return { burst: top('burst'), perSecond: top('perSecond') };
}
