import type { ContextSlot } from '../../infra/context.ts';
import type { Postgres, QueryResult } from './pool.ts';
import type { Transactions } from './transactions.ts';

/** What reads outside a transaction wait for instead of every open lane: nothing (`true`), or what `before` returns. */
export type Unwaited = ContextSlot<true | (() => Promise<unknown> | null)>;

export const rowsOf = <T>(r: QueryResult) => r.rows as T[];

/**
 * The ways the PostgreSQL store's parts (events.ts, sessions.ts, messages.ts, questions.ts, runs.ts) reach the
 * database, over its lanes: which transaction the running code is in, what a read outside one waits for, what it locks.
 */
export function pgQueries(pg: Postgres, lanes: Transactions[], unwaited: Unwaited) {
  /**
   * Outside a transaction a statement first waits for the gateway's transactions open now to end: it reads everything
   * the units before it wrote (a client that sends, then reads, sees what it sent), and only what is committed.
   */
  const afterLanes = async (sql: string, params?: unknown[], guard = false) => {
    const wait = unwaited.get();
    const instead = wait === undefined || wait === true ? wait : wait();
    if (instead === undefined || instead === null) await Promise.all(lanes.map((t) => t.whenEnded()));
    else if (instead !== true) await instead;
    return await pg.query(sql, params, guard);
  };
  // Inside a transaction the statement's own promise (pool.ts `query`): no async step of its own around it.
  const q = (sql: string, params?: unknown[], guard = false): Promise<QueryResult> =>
    pg.inTransaction() ? pg.query(sql, params, guard) : afterLanes(sql, params, guard);
  /** The transaction the running code is inside, else the first lane's (an outer transaction, or a unit of its group). */
  const current = () => (pg.current() as Transactions | undefined) ?? lanes[0];
  return {
    pg,
    q,
    insert: (sql: string, params?: unknown[]) => q(sql, params, true),
    /** A write of exactly one row: in a transaction possibly sent with its next statement (Postgres.writeOne). */
    async writeOne(sql: string, params: unknown[], missing: () => Error) {
      if (pg.inTransaction()) return await pg.writeOne(sql, params, missing);
      if ((await q(sql, params)).rowCount !== 1) throw missing();
    },
    /** Reads of committed events and seqs, which need no such wait: seqs are visible only in order (transactions.ts). */
    committed: (sql: string, params?: unknown[]) => pg.query(sql, params),
    current,
    numbering: () => current().numbering,
    /** Inside a transaction, a row read to be changed is locked as it is read, so a race between gateways is decided here (D2). */
    locking: () => (pg.inTransaction() ? ' FOR UPDATE' : ''),
    /**
     * `SELECT … FROM table WHERE where`, then `order`. In a transaction it locks the rows it reads, after the sessions
     * they are in: every change locks a session before what is in it, so no two transactions lock in opposite orders.
     */
    sessionsFirst: (table: string, columns: string, where: string, order = '') =>
      pg.inTransaction()
        ? `WITH locked AS (SELECT s.key FROM sessions s JOIN ${table} t ON t.session_key = s.key WHERE ${where.replaceAll('$col.', 't.')} FOR UPDATE OF s)
         SELECT ${columns} FROM ${table} WHERE ${where.replaceAll('$col.', '')} AND (SELECT COUNT(*) FROM locked) >= 0 ${order} FOR UPDATE`
        : `SELECT ${columns} FROM ${table} WHERE ${where.replaceAll('$col.', '')} ${order}`,
  };
}

export type PgQueries = ReturnType<typeof pgQueries>;
