import { PUSH_SUBSCRIPTION_COLUMNS, toPushKeys, toPushSubscription, type PushKeysDbRow, type PushSubscriptionDbRow } from '../push-rows.ts';
import type { PushSubscriptionRow, Store } from '../types.ts';
import type { Postgres, QueryResult } from './pool.ts';

type Query = (sql: string, params?: unknown[]) => Promise<QueryResult>;
/** The NOTIFY payload of a change to the push subscriptions (every other payload on the channel is an event seq). */
export const PUSH_CHANGED = 'push';

/**
 * D5: the subscriptions as last read, kept until anything may have changed them: a change here, another gateway's notice of
 * one, LISTEN (re)connecting. A read fills it only if nothing was invalidated while it ran, and never while a
 * transaction that changed them is open (its change is not committed yet, or may be rolled back). Made with the store's
 * `Postgres`, before its LISTEN can answer.
 */
export class SubscriptionCache {
  private rows: PushSubscriptionRow[] | null = null;
  /** Counts invalidations: a read that started under an older one may hold rows from before the change. */
  private generation = 0;
  /** Transactions open now that changed the subscriptions. */
  private uncommitted = 0;
  /** Until LISTEN first answered, another gateway's change would go unheard. */
  private listening = false;
  private loading: { generation: number; rows: Promise<PushSubscriptionRow[]> } | null = null;

  /**
   * `channel`: the one every gateway on the database hears; `transactionEnded`: for a write made inside a transaction,
   * when that transaction ends (null outside one).
   */
  constructor(
    private readonly pg: Postgres,
    readonly channel: string,
    private readonly transactionEnded: () => Promise<void> | null,
  ) {
    pg.onNotify((payload) => {
      if (payload === PUSH_CHANGED) this.invalidate();
    });
    pg.onListening(() => {
      this.listening = true;
      this.invalidate();
    });
  }

  invalidate(): void {
    this.generation++;
    this.rows = null;
    this.loading = null;
  }

  /** Before and after a change of this gateway's; inside a transaction also when it ends, however it ends. */
  async changing<T>(change: () => Promise<T>): Promise<T> {
    this.invalidate();
    const ended = this.transactionEnded();
    if (ended) {
      this.uncommitted++;
      void ended.finally(() => {
        this.uncommitted--;
        this.invalidate();
      });
    }
    try {
      return await change();
    } finally {
      this.invalidate();
    }
  }

  /** What `read` returns, from the cache when it holds the list. */
  list(read: () => Promise<PushSubscriptionRow[]>): Promise<PushSubscriptionRow[]> {
    const cacheable = this.listening && this.uncommitted === 0 && !this.pg.inTransaction();
    if (!cacheable) return read();
    if (this.rows) return Promise.resolve(this.rows);
    if (this.loading?.generation === this.generation) return this.loading.rows;
    const generation = this.generation;
    const rows = read();
    this.loading = { generation, rows };
    const settle = (fill: PushSubscriptionRow[] | null) => {
      if (this.loading?.rows === rows) this.loading = null;
      if (fill && this.generation === generation && this.uncommitted === 0) this.rows = fill;
    };
    rows.then(settle, () => settle(null));
    return rows;
  }
}

/**
 * U17 on PostgreSQL: the VAPID key pair (the first gateway's wins) and the browsers' push subscriptions, shared by every
 * gateway. With `cache`, the subscriptions are read once and kept until one changes (D5: every question event
 * reads them, and most deployments have few or none); every change tells the other gateways through NOTIFY.
 */
export function pushMethods(
  q: Query,
  cache?: SubscriptionCache,
): Pick<Store, 'pushKeys' | 'putPushSubscription' | 'deletePushSubscription' | 'listPushSubscriptions'> {
  const readAll = async () => ((await q(`SELECT ${PUSH_SUBSCRIPTION_COLUMNS} FROM push_subscriptions ORDER BY n`)).rows as PushSubscriptionDbRow[]).map(toPushSubscription);
  // Sent with the change, in its statement: the others hear of it only once it committed.
  const notify = (at: number) => (cache ? ` RETURNING pg_notify($${at}, '${PUSH_CHANGED}')` : '');
  const withChannel = (params: unknown[]) => (cache ? [...params, cache.channel] : params);
  const changing = <T>(change: () => Promise<T>) => (cache ? cache.changing(change) : change());
  return {
    async pushKeys(fresh) {
      await q(`INSERT INTO push_keys (id, public_key, private_key, created_at_ms) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO NOTHING`, [
        fresh.publicKey,
        fresh.privateKey,
        fresh.createdAtMs,
      ]);
      return toPushKeys((await q(`SELECT public_key, private_key, created_at_ms FROM push_keys WHERE id = 1`)).rows[0] as PushKeysDbRow);
    },
    async putPushSubscription(sub, keep) {
      // One statement: the upsert happens only when the endpoint is new or the same identity's, and only then are that
      // identity's oldest beyond `keep` deleted (they are read from the statement's snapshot, so this one is left out).
      const r = await changing(() =>
        q(
          `WITH ins AS (
             INSERT INTO push_subscriptions (endpoint, identity, token_hash, p256dh, auth, created_at_ms) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (endpoint) DO UPDATE SET token_hash = excluded.token_hash, p256dh = excluded.p256dh, auth = excluded.auth,
               created_at_ms = excluded.created_at_ms, n = nextval(pg_get_serial_sequence('push_subscriptions', 'n'))
             WHERE push_subscriptions.identity = excluded.identity
             RETURNING n
           ), gone AS (
             DELETE FROM push_subscriptions WHERE EXISTS (SELECT 1 FROM ins) AND $7::int IS NOT NULL AND endpoint IN (
               SELECT endpoint FROM push_subscriptions WHERE identity = $2 AND endpoint <> $1 ORDER BY n DESC OFFSET greatest(coalesce($7::int, 1) - 1, 0)
             ) RETURNING endpoint, n
           )
           SELECT EXISTS (SELECT 1 FROM ins) AS stored, coalesce((SELECT json_agg(endpoint ORDER BY n) FROM gone), '[]') AS dropped${
             cache ? `, CASE WHEN EXISTS (SELECT 1 FROM ins) THEN pg_notify($8, '${PUSH_CHANGED}') END AS told` : ''
           }`,
          withChannel([sub.endpoint, sub.identity, sub.tokenHash, sub.p256dh, sub.auth, sub.createdAtMs, keep ?? null]),
        ),
      );
      const row = r.rows[0] as { stored: boolean; dropped: string[] | string };
      if (!row.stored) return { stored: false, reason: 'taken' } as const;
      return { stored: true, dropped: typeof row.dropped === 'string' ? (JSON.parse(row.dropped) as string[]) : row.dropped } as const;
    },
    async deletePushSubscription(endpoint, identity) {
      const r = await changing(() =>
        identity === undefined
          ? q(`DELETE FROM push_subscriptions WHERE endpoint = $1${notify(2)}`, withChannel([endpoint]))
          : q(`DELETE FROM push_subscriptions WHERE endpoint = $1 AND identity = $2${notify(3)}`, withChannel([endpoint, identity])),
      );
      return (r.rowCount ?? 0) > 0;
    },
    async listPushSubscriptions(identity) {
      const all = cache ? await cache.list(readAll) : await readAll();
      return all.filter((s) => identity === undefined || s.identity === identity).map((s) => ({ ...s }));
    },
  };
}
