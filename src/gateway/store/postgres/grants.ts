import { grantRecordJson, toGrant, type GrantDbRow } from '../grant-rows.ts';
import type { Store } from '../types.ts';
import type { QueryResult } from './pool.ts';

type Query = (sql: string, params?: unknown[]) => Promise<QueryResult>;
const rows = (r: QueryResult) => (r.rows as GrantDbRow[]).map(toGrant);

/** G5 on PostgreSQL: grants, read by every gateway of the database (a grant made on one applies on the next request on another). */
export function grantMethods(q: Query, insert: Query): Pick<Store, 'insertGrant' | 'getGrant' | 'listGrants' | 'revokeGrant'> {
  return {
    async insertGrant(g) {
      await insert(`INSERT INTO policy_grants (id, created_at_ms, expires_at_ms, record) VALUES ($1, $2, $3, $4)`, [
        g.id,
        g.createdAtMs,
        g.expiresAt,
        grantRecordJson(g),
      ]);
    },
    async getGrant(id) {
      return rows(await q(`SELECT record, revoked_at_ms FROM policy_grants WHERE id = $1`, [id]))[0];
    },
    async listGrants(liveAtMs) {
      return liveAtMs === undefined
        ? rows(await q(`SELECT record, revoked_at_ms FROM policy_grants ORDER BY created_at_ms, id`))
        : rows(await q(`SELECT record, revoked_at_ms FROM policy_grants WHERE revoked_at_ms IS NULL AND expires_at_ms > $1 ORDER BY created_at_ms, id`, [liveAtMs]));
    },
    async revokeGrant(id, atMs) {
      return (await q(`UPDATE policy_grants SET revoked_at_ms = $2 WHERE id = $1 AND revoked_at_ms IS NULL`, [id, atMs])).rowCount > 0;
    },
  };
}
