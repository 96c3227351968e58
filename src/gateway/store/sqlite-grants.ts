import type Database from 'better-sqlite3';
import { grantRecordJson, toGrant, type GrantDbRow } from './grant-rows.ts';
import type { SyncStore } from './types.ts';

type GrantMethods = Pick<SyncStore, 'insertGrant' | 'getGrant' | 'listGrants' | 'revokeGrant'>;

/** G5 on SQLite: the grants "Always allow…" answers made. */
export function sqliteGrantMethods(db: Database.Database): GrantMethods {
  const insert = db.prepare(
    `INSERT INTO policy_grants (id, created_at_ms, expires_at_ms, record) VALUES (@id, @createdAtMs, @expiresAt, @record)`,
  );
  const get = db.prepare<[string], GrantDbRow>(`SELECT record, revoked_at_ms FROM policy_grants WHERE id = ?`);
  const all = db.prepare<[], GrantDbRow>(`SELECT record, revoked_at_ms FROM policy_grants ORDER BY created_at_ms, id`);
  const live = db.prepare<[number], GrantDbRow>(
    `SELECT record, revoked_at_ms FROM policy_grants WHERE revoked_at_ms IS NULL AND expires_at_ms > ? ORDER BY created_at_ms, id`,
  );
  const revoke = db.prepare<[number, string]>(`UPDATE policy_grants SET revoked_at_ms = ? WHERE id = ? AND revoked_at_ms IS NULL`);
  return {
    insertGrant(g) {
      insert.run({ id: g.id, createdAtMs: g.createdAtMs, expiresAt: g.expiresAt, record: grantRecordJson(g) });
    },
    getGrant(id) {
      const r = get.get(id);
      return r ? toGrant(r) : undefined;
    },
    listGrants(liveAtMs) {
      return (liveAtMs === undefined ? all.all() : live.all(liveAtMs)).map(toGrant);
    },
    revokeGrant(id, atMs) {
      return revoke.run(atMs, id).changes > 0;
    },
  };
}
