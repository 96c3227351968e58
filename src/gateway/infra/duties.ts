import type { Clock, TimerHandle } from './clock.ts';
import type { GatewayLog } from './logger.ts';
import type { SharedStore } from '../store/postgres/store.ts';

/** D3: a duty lease lasts this long unless renewed; a dead holder's duties pass on within LEASE_MS + RENEW_EVERY_MS. */
export const LEASE_MS = 2_000;
export const RENEW_EVERY_MS = 500;
/** How long a gateway counts as alive after its last heartbeat (its clients' presence, Q7). */
export const ALIVE_MS = 4_000;
const DUTIES = 'duties';

/**
 * D3: the once-only duties (expiry, the requester-inactive grace) are held by one gateway at a time through a lease
 * row. Each gateway tries to take or renew it every RENEW_EVERY_MS; the holder runs the duties, the others only wait.
 * The lease is for doing the work once, not for correctness: every duty re-reads its rows inside the writing
 * transaction, so two gateways that both believe they hold it (a stalled holder) still act once per question.
 */
export class Duties {
  private timer: TimerHandle | null = null;
  private holding = false;
  private stopped = false;

  constructor(
    private readonly store: SharedStore,
    private readonly clock: Clock,
    readonly gatewayId: string,
    /** Called when this gateway takes the duties over, and then every RENEW_EVERY_MS while it holds them. */
    private readonly onHeld: (justTaken: boolean) => Promise<void>,
    private readonly log: GatewayLog,
  ) {}

  get held(): boolean {
    return this.holding;
  }

  start(): void {
    void this.renew();
  }

  private async renew(): Promise<void> {
    if (this.stopped) return;
    const now = this.clock.now();
    let held = false;
    try {
      await this.store.heartbeat(this.gatewayId, now + ALIVE_MS);
      held = await this.store.acquireLease(DUTIES, this.gatewayId, now, now + LEASE_MS);
    } catch (err) {
      this.log.error({ err }, 'renewing the duty lease failed');
    }
    if (this.stopped) return;
    const justTaken = held && !this.holding;
    if (this.holding && !held) this.log.warn({ gatewayId: this.gatewayId }, 'this gateway no longer holds the duties');
    if (justTaken) this.log.info({ gatewayId: this.gatewayId }, 'this gateway holds the duties');
    this.holding = held;
    if (held) {
      try {
        await this.onHeld(justTaken);
      } catch (err) {
        this.log.error({ err }, 'running the duties failed');
      }
    }
    if (this.stopped) return;
    this.timer = this.clock.setTimeout(() => void this.renew(), RENEW_EVERY_MS);
  }

  /** A clean stop hands the duties on at once instead of after the lease runs out. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
    if (!this.holding) return;
    this.holding = false;
    try {
      await this.store.releaseLease(DUTIES, this.gatewayId);
    } catch {
      // The lease runs out by itself.
    }
  }
}
