import { toPushKeys, toPushSubscription, type PushKeysDbRow, type PushSubscriptionDbRow } from '../push-rows.ts';
import type { Store } from '../types.ts';
import type { QueryResult } from './pool.ts';

type Query = (sql: string, params?: unknown[]) => Promise<QueryResult>;
const COLUMNS = `endpoint, identity, p256dh, auth, created_at_ms`;

/** U17 on PostgreSQL: the VAPID key pair (the first gateway's wins) and the browsers' push subscriptions, shared by every gateway. */
export function pushMethods(q: Query): Pick<Store, 'pushKeys' | 'putPushSubscription' | 'deletePushSubscription' | 'listPushSubscriptions'> {
  return {
    async pushKeys(fresh) {
      await q(`INSERT INTO push_keys (id, public_key, private_key, created_at_ms) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO NOTHING`, [
        fresh.publicKey,
        fresh.privateKey,
        fresh.createdAtMs,
      ]);
      return toPushKeys((await q(`SELECT public_key, private_key, created_at_ms FROM push_keys WHERE id = 1`)).rows[0] as PushKeysDbRow);
    },
    async putPushSubscription(sub) {
      await q(
        `INSERT INTO push_subscriptions (endpoint, identity, p256dh, auth, created_at_ms) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (endpoint) DO UPDATE SET identity = excluded.identity, p256dh = excluded.p256dh, auth = excluded.auth,
           created_at_ms = excluded.created_at_ms, n = nextval(pg_get_serial_sequence('push_subscriptions', 'n'))`,
        [sub.endpoint, sub.identity, sub.p256dh, sub.auth, sub.createdAtMs],
      );
    },
    async deletePushSubscription(endpoint, identity) {
      const r =
        identity === undefined
          ? await q(`DELETE FROM push_subscriptions WHERE endpoint = $1`, [endpoint])
          : await q(`DELETE FROM push_subscriptions WHERE endpoint = $1 AND identity = $2`, [endpoint, identity]);
      return (r.rowCount ?? 0) > 0;
    },
    async listPushSubscriptions(identity) {
      const r =
        identity === undefined
          ? await q(`SELECT ${COLUMNS} FROM push_subscriptions ORDER BY n`)
          : await q(`SELECT ${COLUMNS} FROM push_subscriptions WHERE identity = $1 ORDER BY n`, [identity]);
      return (r.rows as PushSubscriptionDbRow[]).map(toPushSubscription);
    },
  };
}
