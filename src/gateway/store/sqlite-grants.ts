import type Database from 'better-sqlite3';
import { grantRecordJson, toGrant, type GrantDbRow } from './grant-rows.ts';
import { sqliteRecordTable } from './sqlite-record-table.ts';
import type { StoredGrant, SyncStore } from './types.ts';

type GrantMethods = Pick<SyncStore, 'insertGrant' | 'getGrant' | 'listGrants' | 'revokeGrant'>;

/** G5 on SQLite: the grants "Always allow…" answers made. */
export function sqliteGrantMethods(db: Database.Database): GrantMethods {
  const insert = db.prepare(
    `INSERT INTO policy_grants (id, created_at_ms, expires_at_ms, record) VALUES (@id, @createdAtMs, @expiresAt, @record)`,
  );
  const shape = { table: 'policy_grants', columns: 'record, revoked_at_ms', order: 'created_at_ms, id' };
  const grants = sqliteRecordTable<GrantDbRow, StoredGrant>(db, shape, toGrant);
  const listGrants = grants.listing<number>('revoked_at_ms IS NULL AND expires_at_ms > ?');
  const revoke = db.prepare<[number, string]>(`UPDATE policy_grants SET revoked_at_ms = ? WHERE id = ? AND revoked_at_ms IS NULL`);
  return {
    insertGrant(g) {
      insert.run({ id: g.id, createdAtMs: g.createdAtMs, expiresAt: g.expiresAt, record: grantRecordJson(g) });
    },
    getGrant: grants.get,
    listGrants,
    revokeGrant(id, atMs) {
      return revoke.run(atMs, id).changes > 0;
    },
  };
}
