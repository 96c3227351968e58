import { toQuestion } from '../rows.ts';
import type { RouteStoreMethods } from '../route-rows.ts';
import type { Store } from '../types.ts';
import type { Query } from './pool.ts';

type SessionsFirst = (table: string, columns: string, where: string, order?: string) => string;

const PENDING_ROUTED = `$col.status = 'pending' AND askdock_route_due($col.record) IS NOT NULL`;

/**
 * E2/E11 on PostgreSQL: due steps read from the partial index `questions_route_due` (migrations.ts). In a transaction
 * the rows read are locked (after their sessions), so a step another gateway is taking is waited for, then seen taken (D3).
 */
export function postgresRouteMethods(q: Query, sessionsFirst: SessionsFirst): Pick<Store, keyof RouteStoreMethods> {
  return {
    async dueRoutes(nowMs, limit) {
      const sql = sessionsFirst('questions', 'record', `${PENDING_ROUTED} AND askdock_route_due($col.record) <= $1`, 'ORDER BY askdock_route_due(record), n LIMIT $2');
      return (await q(sql, [nowMs, limit])).rows.map((r) => toQuestion(r as { record: string }));
    },
    async nextRouteMs() {
      const at = (await q(`SELECT MIN(askdock_route_due(record)) AS at FROM questions WHERE ${PENDING_ROUTED.replaceAll('$col.', '')}`)).rows[0]?.at;
      return at === null || at === undefined ? null : Number(at);
    },
  };
}
