import type Database from 'better-sqlite3';
import { PUSH_SUBSCRIPTION_COLUMNS, toPushKeys, toPushSubscription, type PushKeysDbRow, type PushSubscriptionDbRow } from './push-rows.ts';
import type { PushPutResult, PushSubscriptionRow, SyncStore } from './types.ts';

type PushMethods = Pick<SyncStore, 'pushKeys' | 'putPushSubscription' | 'deletePushSubscription' | 'listPushSubscriptions'>;

/** U17 on SQLite: the VAPID key pair and the browsers' push subscriptions. */
export function sqlitePushMethods(db: Database.Database): PushMethods {
  const keysInsert = db.prepare(
    `INSERT INTO push_keys (id, public_key, private_key, created_at_ms) VALUES (1, @publicKey, @privateKey, @createdAtMs) ON CONFLICT (id) DO NOTHING`,
  );
  const keysGet = db.prepare<[], PushKeysDbRow>(`SELECT public_key, private_key, created_at_ms FROM push_keys WHERE id = 1`);
  const subDelete = db.prepare<[string]>(`DELETE FROM push_subscriptions WHERE endpoint = ?`);
  const subDeleteOwn = db.prepare<[string, string]>(`DELETE FROM push_subscriptions WHERE endpoint = ? AND identity = ?`);
  const subOwner = db.prepare<[string], { identity: string }>(`SELECT identity FROM push_subscriptions WHERE endpoint = ?`);
  const subInsert = db.prepare(
    `INSERT INTO push_subscriptions (endpoint, identity, token_hash, p256dh, auth, created_at_ms)
     VALUES (@endpoint, @identity, @tokenHash, @p256dh, @auth, @createdAtMs)`,
  );
  // The identity's subscriptions past the newest `keep`, oldest first.
  const subBeyond = db.prepare<[string, number], { endpoint: string }>(
    `SELECT endpoint FROM push_subscriptions WHERE identity = ? ORDER BY n DESC LIMIT -1 OFFSET ?`,
  );
  const subAll = db.prepare<[], PushSubscriptionDbRow>(`SELECT ${PUSH_SUBSCRIPTION_COLUMNS} FROM push_subscriptions ORDER BY n`);
  const subOf = db.prepare<[string], PushSubscriptionDbRow>(`SELECT ${PUSH_SUBSCRIPTION_COLUMNS} FROM push_subscriptions WHERE identity = ? ORDER BY n`);
  const put = db.transaction((sub: PushSubscriptionRow, keep: number | undefined): PushPutResult => {
    const owner = subOwner.get(sub.endpoint)?.identity;
    if (owner !== undefined && owner !== sub.identity) return { stored: false, reason: 'taken' };
    subDelete.run(sub.endpoint);
    subInsert.run(sub);
    const dropped = keep === undefined ? [] : subBeyond.all(sub.identity, keep).map((r) => r.endpoint).reverse();
    for (const endpoint of dropped) subDelete.run(endpoint);
    return { stored: true, dropped };
  });
  return {
    pushKeys(fresh) {
      keysInsert.run(fresh);
      return toPushKeys(keysGet.get()!);
    },
    putPushSubscription(sub, keep) {
      return put.immediate(sub, keep);
    },
    deletePushSubscription(endpoint, identity) {
      return (identity === undefined ? subDelete.run(endpoint) : subDeleteOwn.run(endpoint, identity)).changes > 0;
    },
    listPushSubscriptions(identity) {
      return (identity === undefined ? subAll.all() : subOf.all(identity)).map(toPushSubscription);
    },
  };
}
