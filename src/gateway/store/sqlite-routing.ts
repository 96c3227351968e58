import type Database from 'better-sqlite3';
import { toQuestion } from './rows.ts';
import type { RouteStoreMethods } from './route-rows.ts';

/** A question's next step deadline, as indexed by `questions_route_due` (sqlite-migrations.ts): the same text, so the index is used. */
const DUE = `json_extract(record, '$.route.nextAtMs')`;
const PENDING_ROUTED = `status = 'pending' AND ${DUE} IS NOT NULL`;

/** The duty's two reads (exported for the test that checks they use the index). */
export const ROUTE_SQL = {
  due: `SELECT record FROM questions WHERE ${PENDING_ROUTED} AND ${DUE} <= ? ORDER BY ${DUE}, n LIMIT ?`,
  next: `SELECT MIN(${DUE}) AS at FROM questions WHERE ${PENDING_ROUTED}`,
};

/** E2/E11 on SQLite: due steps read from a partial index of pending questions' deadlines, never a scan of every one. */
export function sqliteRouteMethods(db: Database.Database): RouteStoreMethods {
  const due = db.prepare<[number, number], { record: string }>(ROUTE_SQL.due);
  const next = db.prepare<[], { at: number | null }>(ROUTE_SQL.next);
  return {
    dueRoutes: (nowMs, limit) => due.all(nowMs, limit).map(toQuestion),
    nextRouteMs: () => next.get()?.at ?? null,
  };
}
