import type Database from 'better-sqlite3';
import { toPushKeys, toPushSubscription, type PushKeysDbRow, type PushSubscriptionDbRow } from './push-rows.ts';
import type { SyncStore } from './types.ts';

type PushMethods = Pick<SyncStore, 'pushKeys' | 'putPushSubscription' | 'deletePushSubscription' | 'listPushSubscriptions'>;

/** U17 on SQLite: the VAPID key pair and the browsers' push subscriptions. */
export function sqlitePushMethods(db: Database.Database): PushMethods {
  const keysInsert = db.prepare(
    `INSERT INTO push_keys (id, public_key, private_key, created_at_ms) VALUES (1, @publicKey, @privateKey, @createdAtMs) ON CONFLICT (id) DO NOTHING`,
  );
  const keysGet = db.prepare<[], PushKeysDbRow>(`SELECT public_key, private_key, created_at_ms FROM push_keys WHERE id = 1`);
  const subDelete = db.prepare<[string]>(`DELETE FROM push_subscriptions WHERE endpoint = ?`);
  const subDeleteOwn = db.prepare<[string, string]>(`DELETE FROM push_subscriptions WHERE endpoint = ? AND identity = ?`);
  const subInsert = db.prepare(
    `INSERT INTO push_subscriptions (endpoint, identity, p256dh, auth, created_at_ms) VALUES (@endpoint, @identity, @p256dh, @auth, @createdAtMs)`,
  );
  const columns = `endpoint, identity, p256dh, auth, created_at_ms`;
  const subAll = db.prepare<[], PushSubscriptionDbRow>(`SELECT ${columns} FROM push_subscriptions ORDER BY n`);
  const subOf = db.prepare<[string], PushSubscriptionDbRow>(`SELECT ${columns} FROM push_subscriptions WHERE identity = ? ORDER BY n`);
  const put = db.transaction((sub: Parameters<PushMethods['putPushSubscription']>[0]) => {
    subDelete.run(sub.endpoint);
    subInsert.run(sub);
  });
  return {
    pushKeys(fresh) {
      keysInsert.run(fresh);
      return toPushKeys(keysGet.get()!);
    },
    putPushSubscription(sub) {
      put.immediate(sub);
    },
    deletePushSubscription(endpoint, identity) {
      return (identity === undefined ? subDelete.run(endpoint) : subDeleteOwn.run(endpoint, identity)).changes > 0;
    },
    listPushSubscriptions(identity) {
      return (identity === undefined ? subAll.all() : subOf.all(identity)).map(toPushSubscription);
    },
  };
}
