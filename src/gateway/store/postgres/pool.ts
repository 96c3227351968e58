import pg from 'pg';
import { ContextSlot } from '../../infra/context.ts';
import { TxStatements, type TxContext } from './in-transaction.ts';
import { LISTEN_CHECK_MS, POOL_SIZE, SESSION_LIMITS, SILENT_NETWORK } from './limits.ts';
import { NotifyConnection } from './listen.ts';
import { PreparedStatements, type Piece } from './prepared.ts';
import { shape, type Query, type QueryResult } from './results.ts';

export { inlined as inline } from './prepared.ts';
export { lanesFor, MAX_LANES } from './limits.ts';
export type { Query, QueryResult } from './results.ts';

/**
 * A synchronous commit that writes (one row per connection): once it returns, everything committed before it is on disk,
 * commits made without waiting for their flush included (transactions.ts).
 */
export const FLUSH_SQL = `INSERT INTO askdock_flush (pid, n) VALUES (pg_backend_pid(), 1) ON CONFLICT (pid) DO UPDATE SET n = askdock_flush.n + 1`;

/**
 * A statement that got no answer within `query_timeout` (a silent network) is still running on its connection, and
 * anything sent after it would wait behind it: the connection is dropped instead. True when `err` was that.
 */
export function dropIfSilent(client: pg.ClientBase, err: unknown): boolean {
  if (!(err instanceof Error) || err.message !== 'Query read timeout') return false;
  // What the connection says as it goes is known already.
  client.on('error', () => {});
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  return true;
}

/**
 * PostgreSQL through a `pg` Pool, awaited on the gateway's thread (D1): a statement costs a round trip to the database
 * but never holds up the event loop. Code running inside a transaction (a unit of work, transactions.ts) runs every
 * statement on that transaction's connection, in order, so it reads its own writes; any other statement takes a free
 * connection of the pool and reads what is committed. A separate connection LISTENs for other gateways' commits.
 */
export class Postgres {
  private readonly pool: pg.Pool;
  /** The transaction of the code running now, when that code runs inside one. */
  private readonly unit = new ContextSlot<TxContext>('askdock.transaction');
  private readonly prepared = new PreparedStatements();
  /** The statements of code running inside a transaction, on its connection. */
  private readonly tx = new TxStatements(this.prepared);
  /** Connections of open transactions, dropped (not returned) on close: PostgreSQL rolls them back. */
  readonly open = new Set<pg.PoolClient>();
  private closed = false;
  /** The LISTEN connection, when there is a channel to listen on. */
  private readonly notices: NotifyConnection | null;
  /** The newest seq known to be on disk: this gateway's commits return, and notifications are sent, only once flushed. */
  private flushedSeq = 0;

  constructor(
    url: string,
    channel: string | null,
    { listenCheckMs = LISTEN_CHECK_MS, queryTimeoutMs = SILENT_NETWORK.query_timeout }: { listenCheckMs?: number; queryTimeoutMs?: number } = {},
  ) {
    this.pool = new pg.Pool({ connectionString: url, application_name: 'askdock', max: POOL_SIZE, ...SESSION_LIMITS, ...SILENT_NETWORK, query_timeout: queryTimeoutMs });
    // A connection that broke while idle in the pool: the pool drops it; nothing waits on it.
    this.pool.on('error', () => {});
    this.notices = channel ? new NotifyConnection(url, channel, listenCheckMs, (seq) => this.flushedUpTo(seq)) : null;
  }

  /**
   * `guard`: inside a transaction, the statement runs in its own savepoint, so a failing insert leaves the transaction
   * usable, as it would in SQLite.
   */
  readonly query: Query = (sql, params, guard = false) => {
    if (this.closed) return Promise.reject(new Error('store: the PostgreSQL store is closed'));
    const ctx = this.unit.get();
    const client = ctx?.client;
    if (!client) return this.pooled(sql, params);
    // Inside a transaction the statement's promise is handed back as it is: an async step around it made two promises
    // more per statement, each seen by the context's AsyncLocalStorage (queries.ts `q`).
    return this.tx.query(ctx!, client, sql, params, guard);
  };

  private async pooled(sql: string, params?: unknown[]): Promise<QueryResult> {
    return shape(await this.pool.query(this.prepared.config(sql, params)));
  }

  /**
   * A write that must change exactly one row and whose result nobody reads. Inside a transaction, once its statement is
   * prepared on the transaction's connection and no statements are gathering, it is put off and carried by the
   * transaction's next statement (often its COMMIT): no round trip of its own (in-transaction.ts). Should it change no
   * row, that statement then fails, and the transaction with it (the unit that wrote it has already returned, so none of
   * its group is kept: lost-group.ts): only for writes that cannot miss, such as an update of a row the unit has locked,
   * or an insert under an id just made. Otherwise it runs now and a missed row throws `missing()`.
   */
  writeOne(sql: string, params: unknown[], missing: () => Error): Promise<void> {
    if (this.closed) return Promise.reject(new Error('store: the PostgreSQL store is closed'));
    const ctx = this.unit.get();
    const client = ctx?.client;
    if (!ctx || !client) return this.writeOneNow(sql, params, missing);
    // Handed back as it is (no wrapping async step): a write put off resolves in the tick it was made, so the unit's
    // next statement still joins the reads gathering for this round trip.
    return this.tx.writeOne(ctx, client, sql, params, missing);
  }

  private async writeOneNow(sql: string, params: unknown[], missing: () => Error): Promise<void> {
    if ((await this.query(sql, params)).rowCount !== 1) throw missing();
  }

  /** The transaction the code running now is inside, if any. */
  current(): TxContext | undefined {
    const ctx = this.unit.get();
    return ctx?.client ? ctx : undefined;
  }

  inTransaction(): boolean {
    return this.current() !== undefined;
  }

  /** Runs `fn` inside transaction `ctx`: its statements go to that transaction's connection. */
  within<T>(ctx: TxContext, fn: () => T): T {
    return this.unit.run(ctx, fn);
  }

  /** `sql` prepared on `client` (once per connection), run with `args`, SQL expressions: for a query of several statements. */
  preparedOn(client: pg.ClientBase, sql: string, args: string[]): Piece | null {
    return this.prepared.pieceOf(client, sql, args);
  }

  /** The query carrying `pieces` ran on `client`: their PREPAREs are held by the connection. */
  ranOn(client: pg.ClientBase, pieces: Piece[]): void {
    this.prepared.ran(client, pieces);
  }

  /** `sqls` prepared on `client` where they are not yet, in a round trip of their own (PreparedStatements.prepareAlone). */
  prepareAlone(client: pg.ClientBase, sqls: string[]): Promise<void> {
    return this.prepared.prepareAlone(client, sqls);
  }

  /** A connection of its own, e.g. for a transaction or a session-level lock; give it back with `release`. */
  connect(): Promise<pg.PoolClient> {
    if (this.closed) return Promise.reject(new Error('store: the PostgreSQL store is closed'));
    return this.pool.connect();
  }

  /**
   * The database's distance: the shortest of a few round trips of an empty statement, in ms (after one that opens a
   * connection). The network's distance is the floor; a busy machine only adds to it (the gateway's turn on a core, the
   * server's), so a median taken while other work runs made a database next door look far and got it up to sixteen
   * lanes: smaller groups, more commits per round trip (bench/FINDINGS.md section 64).
   */
  async roundTripMs(tries = 7): Promise<number> {
    const client = await this.connect();
    try {
      await client.query('SELECT 1');
      const took: number[] = [];
      for (let i = 0; i < tries; i++) {
        const start = performance.now();
        await client.query('SELECT 1');
        took.push(performance.now() - start);
      }
      return Math.min(...took);
    } finally {
      client.release();
    }
  }

  flushedUpTo(seq: number): void {
    if (seq > this.flushedSeq) this.flushedSeq = seq;
  }

  /**
   * A read may see another gateway's commit a moment before it is on disk (its numbering commit does not wait for the
   * flush that follows it): before what was read goes to anyone, this makes sure every seq up to `seq` is on disk.
   */
  async flushed(seq: number): Promise<void> {
    if (seq <= this.flushedSeq) return;
    if (this.closed) throw new Error('store: the PostgreSQL store is closed');
    await this.pool.query(FLUSH_SQL);
    this.flushedUpTo(seq);
  }

  /** `payload` of every NOTIFY on the channel. */
  onNotify(fn: (payload: string) => void): () => void {
    return this.notices ? this.notices.onNotify(fn) : () => {};
  }

  /** After LISTEN (re)connected: notifications sent while it was away are lost, so listeners catch up. */
  onListening(fn: () => void): () => void {
    return this.notices ? this.notices.onListening(fn) : () => {};
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.notices?.clear();
    const ends: Promise<unknown>[] = [];
    // An open transaction's connection is dropped, not returned: PostgreSQL rolls the transaction back.
    for (const client of this.open) client.release(true);
    this.open.clear();
    this.notices?.close();
    ends.push(this.pool.end().catch(() => {}));
    await Promise.all(ends);
  }
}
