import type { EventAudience, SharedCapabilities, Store, StoredEvent, ToldCommit, ToldEvent } from '../types.ts';
import type { Postgres } from './pool.ts';

/**
 * What a gateway on a shared database needs beyond the Store: every shared capability the Store declares as optional
 * (types.ts), and leases, heartbeats, presence.
 */
export type SharedStore = Store & Required<SharedCapabilities> & {
  /** D3: takes or renews lease `name` for `holder` until `untilMs`; true when `holder` has it. */
  acquireLease(name: string, holder: string, nowMs: number, untilMs: number): Promise<boolean>;
  releaseLease(name: string, holder: string): Promise<void>;
  /** Q7 across gateways: this gateway is alive until `untilMs`. */
  heartbeat(gatewayId: string, untilMs: number): Promise<void>;
  clientConnected(identity: string, clientId: string, gatewayId: string): Promise<void>;
  clientDisconnected(identity: string, clientId: string, gatewayId: string, atMs: number): Promise<void>;
  /** When the client was last seen anywhere: null while connected to a live gateway, else the time it left (0: never seen). */
  clientAbsentSince(identity: string, clientId: string, nowMs: number): Promise<number | null>;
};

export function isSharedStore(store: Store): store is SharedStore {
  return (store as Partial<SharedStore>).shared === true;
}


/** PostgreSQL's SQLSTATE for a statement it failed to break a deadlock: the unit runs again, in its lane's next group. */
const DEADLOCK = '40P01';
export const isDeadlock = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === DEADLOCK;

export type { LaneStore } from '../types.ts';

type ClusterMethods = Pick<SharedStore, 'onCommitted' | 'acquireLease' | 'releaseLease' | 'heartbeat' | 'clientConnected' | 'clientDisconnected' | 'clientAbsentSince'>;

/**
 * D2: the events a commit's notification carries (numbering.ts `told`), as a read of them would return them, each with
 * its payload's JSON as stored when the frame may carry it as it is: each seq `base` + its place, a message new in that
 * commit with the seq of its `chat` event (its stored JSON still has the provisional one). Undefined when unreadable.
 */
function toldEvents(base: number, text: string): ToldEvent[] | undefined {
  try {
    const line = text.indexOf('\n');
    if (line < 0) return undefined;
    const heads = JSON.parse(text.slice(0, line)) as [number, StoredEvent['event'], EventAudience, number, number | null, number][];
    let at = line + 1;
    const told: ToldEvent[] = [];
    for (const [i, event, audience, atMs, m, length] of heads) {
      const json = text.slice(at, (at += length));
      const payload = JSON.parse(json) as { message?: { seq?: number } };
      if (m !== null && payload.message) payload.message.seq = base + m;
      // A message still with a provisional seq is read instead.
      if ((payload.message?.seq ?? 0) < 0) return undefined;
      told.push({ ev: { seq: base + i, event, payload, audience, atMs }, text: m === null ? json : undefined });
    }
    return at === text.length ? told : undefined;
  } catch {
    return undefined;
  }
}

/** A notification's told events, parsed on demand. (A class, not an object with an arrow: a named closure costs a `__name` call per notification where the sources run through tsx.) */
class ToldText implements ToldCommit {
  readonly first: number;
  constructor(
    private readonly base: number,
    private readonly text: string,
  ) {
    // A commit told in several notifications: this one's first event is its heads' first (`[[i,`), not the commit's.
    const first = /^\[\[(\d+),/.exec(text);
    this.first = base + (first ? Number(first[1]) : 1);
  }

  events(): ToldEvent[] | undefined {
    return toldEvents(this.base, this.text);
  }
}

/** D2-D3 on PostgreSQL: commit notices from every gateway, leases for the duties that act once, heartbeats and presence. */
export function clusterMethods(pg: Postgres): ClusterMethods {
  return {
    onCommitted(fn) {
      const offNotify = pg.onNotify((payload) => {
        // A seq's digits, perhaps with the events: other payloads on the channel tell of other changes (push.ts).
        const told = /^(\d+)(?: (\d+) (\[.*))?$/s.exec(payload);
        if (!told) return;
        const seq = Number(told[1]);
        if (!Number.isSafeInteger(seq)) return;
        if (told[3] === undefined) return fn(seq);
        // Parsed only when asked: a gateway hearing its own commit after the commit's answer has its events already.
        fn(seq, new ToldText(Number(told[2]), told[3]));
      });
      const offListening = pg.onListening(() => fn(null));
      return () => {
        offNotify();
        offListening();
      };
    },
    async acquireLease(name, holder, nowMs, untilMs) {
      const r = await pg.query(
        `INSERT INTO leases (name, holder, until_ms) VALUES ($1, $2, $4)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms
         WHERE leases.holder = excluded.holder OR leases.until_ms < $3
         RETURNING holder`,
        [name, holder, nowMs, untilMs],
      );
      return r.rowCount === 1;
    },
    async releaseLease(name, holder) {
      await pg.query(`DELETE FROM leases WHERE name = $1 AND holder = $2`, [name, holder]);
    },
    async heartbeat(gatewayId, untilMs) {
      await pg.query(`INSERT INTO gateways (id, alive_until_ms) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET alive_until_ms = excluded.alive_until_ms`, [
        gatewayId,
        untilMs,
      ]);
    },
    async clientConnected(identity, clientId, gatewayId) {
      await pg.query(
        `INSERT INTO presence (identity, client_id, gateway_id, connections, left_at_ms) VALUES ($1, $2, $3, 1, NULL)
         ON CONFLICT (identity, client_id, gateway_id) DO UPDATE SET connections = presence.connections + 1, left_at_ms = NULL`,
        [identity, clientId, gatewayId],
      );
    },
    async clientDisconnected(identity, clientId, gatewayId, atMs) {
      await pg.query(
        `UPDATE presence SET connections = GREATEST(connections - 1, 0),
         left_at_ms = CASE WHEN connections <= 1 THEN $4 ELSE left_at_ms END
         WHERE identity = $1 AND client_id = $2 AND gateway_id = $3`,
        [identity, clientId, gatewayId, atMs],
      );
    },
    async clientAbsentSince(identity, clientId, nowMs) {
      // A connection on a gateway that stopped renewing its heartbeat counts as gone since that heartbeat ran out.
      const rows = (await pg.query(
        `SELECT p.connections, p.left_at_ms, g.alive_until_ms FROM presence p LEFT JOIN gateways g ON g.id = p.gateway_id
         WHERE p.identity = $1 AND p.client_id = $2`,
        [identity, clientId],
      )).rows as { connections: number; left_at_ms: number | null; alive_until_ms: number | null }[];
      let since = 0;
      for (const r of rows) {
        const alive = r.alive_until_ms !== null && r.alive_until_ms >= nowMs;
        if (r.connections > 0 && alive) return null;
        const left = r.connections > 0 ? (r.alive_until_ms ?? 0) : (r.left_at_ms ?? 0);
        since = Math.max(since, left);
      }
      return since;
    },
  };
}
