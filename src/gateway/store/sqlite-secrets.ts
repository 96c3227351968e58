import type Database from 'better-sqlite3';
import { toSecret, toSecretRequest, type SecretDbRow } from './secret-rows.ts';
import { missingRow, toJson } from './shape.ts';
import { sqliteRecordTable } from './sqlite-record-table.ts';
import type { SecretStoreMethods } from './types.ts';

/** K1 on SQLite: secret requests (never a value) and secrets as ciphertext only, encrypted above the store. */
export function sqliteSecretMethods(db: Database.Database): SecretStoreMethods {
  const requestInsert = db.prepare(`INSERT INTO secret_requests (id, status, created_at_ms, record) VALUES (@id, @status, @createdAtMs, @record)`);
  const requestUpdate = db.prepare(`UPDATE secret_requests SET status = @status, record = @record WHERE id = @id`);
  const requests = sqliteRecordTable(db, { table: 'secret_requests', columns: 'record', order: 'created_at_ms, n' }, toSecretRequest);
  const requestsWith = requests.listing<string>('status = ?');
  const secretPut = db.prepare(
    `INSERT INTO secrets (owner, name, ciphertext, stored_by, request_id, stored_at_ms) VALUES (@owner, @name, @ciphertext, @storedBy, @requestId, @storedAtMs)
     ON CONFLICT (owner, name) DO UPDATE SET ciphertext = excluded.ciphertext, stored_by = excluded.stored_by,
       request_id = excluded.request_id, stored_at_ms = excluded.stored_at_ms`,
  );
  const secretGet = db.prepare<[string, string], SecretDbRow>(`SELECT * FROM secrets WHERE owner = ? AND name = ?`);
  return {
    insertSecretRequest(r) {
      requestInsert.run({ id: r.id, status: r.status, createdAtMs: r.createdAtMs, record: toJson(r) });
    },
    getSecretRequest: requests.get,
    updateSecretRequest(r) {
      if (requestUpdate.run({ id: r.id, status: r.status, record: toJson(r) }).changes === 0) throw missingRow('secret request', r.id);
    },
    listSecretRequests: ({ status }) => requestsWith(status),
    putSecret(secret) {
      secretPut.run({ ...secret, requestId: secret.requestId ?? null });
    },
    getSecret(owner, name) {
      const r = secretGet.get(owner, name);
      return r ? toSecret(r) : undefined;
    },
  };
}
