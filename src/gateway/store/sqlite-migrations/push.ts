import type { MigrationStep } from '../migration-step.ts';

// U17: the VAPID key pair and the browsers' push subscriptions.

// U17: the gateway's VAPID key pair and each browser's push subscription.
export const pushKeysAndSubscriptions: MigrationStep = {
  id: 'push-keys-subscriptions',
  sql: `
      CREATE TABLE push_keys (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        public_key TEXT NOT NULL,
        private_key TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL
      );
      CREATE TABLE push_subscriptions (
        n INTEGER PRIMARY KEY AUTOINCREMENT,
        endpoint TEXT NOT NULL UNIQUE,
        identity TEXT NOT NULL,
        p256dh TEXT NOT NULL,
        auth TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL
      );
      CREATE INDEX push_subscriptions_by_identity ON push_subscriptions (identity, n);
    `,
};

// U17: the token a subscription was made with (a hash of its hash); a row from before has none and ends.
export const pushTokenHash: MigrationStep = {
  id: 'push-token-hash',
  sql: `ALTER TABLE push_subscriptions ADD COLUMN token_hash TEXT NOT NULL DEFAULT '';`,
};
