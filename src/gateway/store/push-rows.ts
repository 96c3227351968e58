import type { PushKeys, PushSubscriptionRow } from './types.ts';

/** U17: the push tables' rows as SQLite and PostgreSQL return them. */
export type PushKeysDbRow = { public_key: string; private_key: string; created_at_ms: number | string };
export type PushSubscriptionDbRow = { endpoint: string; identity: string; token_hash: string; p256dh: string; auth: string; created_at_ms: number | string };

export const toPushKeys = (r: PushKeysDbRow): PushKeys => ({ publicKey: r.public_key, privateKey: r.private_key, createdAtMs: Number(r.created_at_ms) });
export const toPushSubscription = (r: PushSubscriptionDbRow): PushSubscriptionRow => ({
  endpoint: r.endpoint,
  identity: r.identity,
  tokenHash: r.token_hash,
  p256dh: r.p256dh,
  auth: r.auth,
  createdAtMs: Number(r.created_at_ms),
});

/** The columns of a `PushSubscriptionDbRow`, in the order both stores select them. */
export const PUSH_SUBSCRIPTION_COLUMNS = 'endpoint, identity, token_hash, p256dh, auth, created_at_ms';
