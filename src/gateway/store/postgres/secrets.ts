import { toSecret, toSecretRequest, type SecretDbRow } from '../secret-rows.ts';
import { missingRow, toJson } from '../shape.ts';
import type { Store } from '../types.ts';
import type { QueryResult } from './pool.ts';

type Query = (sql: string, params?: unknown[]) => Promise<QueryResult>;

/** K1 on PostgreSQL: secret requests (never a value) and secrets as ciphertext only, encrypted above the store. */
export function secretMethods(
  q: Query,
  insert: Query,
  /** ' FOR UPDATE' inside a transaction: a request read to be fulfilled is locked as it is read (D2). */
  locking: () => string,
): Pick<Store, 'insertSecretRequest' | 'getSecretRequest' | 'updateSecretRequest' | 'listSecretRequests' | 'putSecret' | 'getSecret'> {
  return {
    async insertSecretRequest(r) {
      await insert(`INSERT INTO secret_requests (id, status, created_at_ms, record) VALUES ($1, $2, $3, $4)`, [r.id, r.status, r.createdAtMs, toJson(r)]);
    },
    async getSecretRequest(id) {
      const r = (await q(`SELECT record FROM secret_requests WHERE id = $1${locking()}`, [id])).rows[0];
      return r ? toSecretRequest(r) : undefined;
    },
    async updateSecretRequest(r) {
      if ((await q(`UPDATE secret_requests SET status = $2, record = $3 WHERE id = $1`, [r.id, r.status, toJson(r)])).rowCount === 0)
        throw missingRow('secret request', r.id);
    },
    async listSecretRequests({ status }) {
      const rows =
        status === undefined
          ? (await q(`SELECT record FROM secret_requests ORDER BY created_at_ms, n`))
          : await q(`SELECT record FROM secret_requests WHERE status = $1 ORDER BY created_at_ms, n`, [status]);
      return rows.rows.map(toSecretRequest);
    },
    async putSecret(secret) {
      await q(
        `INSERT INTO secrets (owner, name, ciphertext, stored_by, request_id, stored_at_ms) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (owner, name) DO UPDATE SET ciphertext = excluded.ciphertext, stored_by = excluded.stored_by,
           request_id = excluded.request_id, stored_at_ms = excluded.stored_at_ms`,
        [secret.owner, secret.name, secret.ciphertext, secret.storedBy, secret.requestId ?? null, secret.storedAtMs],
      );
    },
    async getSecret(owner, name) {
      const r = (await q(`SELECT owner, name, ciphertext, stored_by, request_id, stored_at_ms FROM secrets WHERE owner = $1 AND name = $2`, [owner, name]))
        .rows[0] as SecretDbRow | undefined;
      return r ? toSecret(r) : undefined;
    },
  };
}
