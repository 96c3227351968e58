import pg from 'pg';

export type QueryResult = { rows: Record<string, unknown>[]; rowCount: number; command: string };
export type Query = (sql: string, params?: unknown[], guard?: boolean) => Promise<QueryResult>;

// bigint and numeric as numbers: every such column holds a seq, a time in ms or a count.
const asNumber = (v: string | null) => (v === null ? null : Number(v));
pg.types.setTypeParser(20, asNumber);
pg.types.setTypeParser(1700, asNumber);

/** The result of the statement `fromEnd` places from the end of a multi-statement query's. */
export function pick(r: pg.QueryResult | pg.QueryResult[], fromEnd: number): QueryResult {
  const one = Array.isArray(r) ? r[r.length - fromEnd] : r;
  return { rows: one.rows, rowCount: one.rowCount ?? 0, command: one.command };
}

/** The result of a query's last statement. */
export function shape(r: pg.QueryResult | pg.QueryResult[]): QueryResult {
  const last = Array.isArray(r) ? r[r.length - 1] : r;
  return { rows: last.rows, rowCount: last.rowCount ?? 0, command: last.command };
}
