import type { Clock } from '../infra/clock.ts';
import type { SharedStore } from '../store/postgres/store.ts';
import type { StoredQuestion } from '../store/types.ts';

/**
 * Q7 across gateways (D3): an asking client may reconnect to any gateway, so whether it is away is kept in the database
 * (which gateway holds how many of its connections, and when it left), and the gateway holding the duties cancels the
 * blocking questions of a client that has been away from every gateway for the whole grace period. A connection on a
 * gateway that died counts as gone from that gateway's last heartbeat.
 */
export class SharedPresence {
  /** When this gateway last took the duties over: a client never seen anywhere gets its grace from then, as after a restart on SQLite. */
  private heldSinceMs = 0;

  constructor(
    private readonly store: SharedStore,
    private readonly clock: Clock,
    private readonly gatewayId: string,
    private readonly graceMs: number,
    private readonly pendingBlocking: () => Promise<StoredQuestion[]>,
    private readonly giveUp: (askedBy: string, clientId: string) => Promise<void> | void,
  ) {}

  async connected(askedBy: string, clientId: string): Promise<void> {
    await this.store.clientConnected(askedBy, clientId, this.gatewayId);
  }

  async disconnected(askedBy: string, clientId: string): Promise<void> {
    await this.store.clientDisconnected(askedBy, clientId, this.gatewayId, this.clock.now());
  }

  /** Grace periods are the duty holder's sweep here. */
  startGrace(): void {}

  stop(): void {}

  /** The duty holder, every lease renewal: `justTaken` when it just took the duties over. */
  async sweep(justTaken: boolean): Promise<void> {
    const now = this.clock.now();
    if (justTaken) this.heldSinceMs = now;
    const seen = new Set<string>();
    for (const q of await this.pendingBlocking()) {
      if (!q.askerClientId) continue;
      const key = `${q.askedBy}\u0000${q.askerClientId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const absentSince = await this.store.clientAbsentSince(q.askedBy, q.askerClientId, now);
      if (absentSince === null) continue;
      if (now - (absentSince === 0 ? this.heldSinceMs : absentSince) >= this.graceMs) await this.giveUp(q.askedBy, q.askerClientId);
    }
  }
}
