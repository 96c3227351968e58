import type Database from 'better-sqlite3';

/** A table that keeps each row's record beside the columns it is found by: its name, what a read selects, a listing's order. */
export type RecordTableShape = { table: string; columns: string; order: string };

/**
 * The reads of such a table on SQLite (grants, secret requests): one row by its id, and listings of every row or of
 * the rows one filter keeps, always in the table's order. Statements are prepared once, when the store opens.
 */
export function sqliteRecordTable<Row, T>(db: Database.Database, { table, columns, order }: RecordTableShape, toValue: (r: Row) => T) {
  const one = db.prepare<[string], Row>(`SELECT ${columns} FROM ${table} WHERE id = ?`);
  const every = db.prepare<[], Row>(`SELECT ${columns} FROM ${table} ORDER BY ${order}`);
  return {
    get(id: string): T | undefined {
      const r = one.get(id);
      return r ? toValue(r) : undefined;
    },
    /** Every row when called without a value, else the rows `where` (a condition with one `?`) keeps for it. */
    listing<P>(where: string): (value: P | undefined) => T[] {
      const some = db.prepare<[P], Row>(`SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY ${order}`);
      return (value) => (value === undefined ? every.all() : some.all(value)).map(toValue);
    },
  };
}
