import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { LISTEN_CHECK_MS, POOL_SIZE, SESSION_LIMITS, SILENT_NETWORK } from './limits.ts';
import { NotifyConnection } from './listen.ts';
import { PreparedStatements } from './prepared.ts';

export { inlined as inline } from './prepared.ts';
export { lanesFor, MAX_LANES } from './limits.ts';

export type QueryResult = { rows: Record<string, unknown>[]; rowCount: number; command: string };
export type Query = (sql: string, params?: unknown[], guard?: boolean) => Promise<QueryResult>;

// bigint and numeric as numbers: every such column holds a seq, a time in ms or a count.
const asNumber = (v: string | null) => (v === null ? null : Number(v));
pg.types.setTypeParser(20, asNumber);
pg.types.setTypeParser(1700, asNumber);

/**
 * What code running inside a transaction runs its statements on (transactions.ts); `client` null once it ended.
 * `deferred` hands over (once) the statements the transaction put off until its next one, e.g. `BEGIN; `, to be sent
 * with it in one round trip.
 */
export type TxContext = { readonly client: pg.PoolClient | null; deferred(): string; putOffWrite(statement: string): void };

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

/** What a one-row write put off (`writeOne`) raises when it changed no row. */
export const DIVISION_BY_ZERO = '22012';

type Batched = { sql: string; params?: unknown[]; ok: (r: QueryResult) => void; fail: (err: unknown) => void };

/**
 * PostgreSQL through a `pg` Pool, awaited on the gateway's thread (D1): a statement costs a round trip to the database
 * but never holds up the event loop. Code running inside a transaction (a unit of work, transactions.ts) runs every
 * statement on that transaction's connection, in order, so it reads its own writes; any other statement takes a free
 * connection of the pool and reads what is committed. A separate connection LISTENs for other gateways' commits.
 */
export class Postgres {
  private readonly pool: pg.Pool;
  /** The transaction of the code running now, when that code runs inside one. */
  private readonly unit = new AsyncLocalStorage<TxContext>();
  /** Per transaction's connection, the statements sent by the code running now, leaving together after it (`together`). */
  private readonly batches = new WeakMap<pg.PoolClient, Batched[]>();
  private readonly prepared = new PreparedStatements();
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
  readonly query: Query = async (sql, params, guard = false) => {
    if (this.closed) throw new Error('store: the PostgreSQL store is closed');
    const ctx = this.unit.getStore();
    const client = ctx?.client;
    if (!client) return shape(await this.pool.query(this.prepared.config(sql, params)));
    if (!guard) return this.together(ctx!, client, sql, params);
    // Statements sent before this one and still gathering go first: its savepoint must not cover (or undo) them. A
    // guarded statement is not meant to be sent together with others: one sent while it runs would reach the database
    // before its savepoint is rolled back, and fail if it failed.
    const gathering = this.batches.get(client);
    if (gathering) {
      this.batches.delete(client);
      void this.send(ctx!, client, gathering);
    }
    // What the transaction put off (BEGIN, a unit's SAVEPOINT, a RELEASE) goes in the same round trip as this statement.
    const before = ctx!.deferred();
    const piece = this.prepared.piece(client, sql, params);
    if (piece === null) {
      // Queued on the connection ahead of the statement; if it failed, so does the statement.
      if (before) client.query(before).catch(() => undefined);
      return this.guarded(client, sql, params);
    }
    try {
      const r = pick(await client.query(`${before}SAVEPOINT askdock_stmt; ${piece.text}; RELEASE SAVEPOINT askdock_stmt`), 2);
      this.prepared.ran(client, [piece]);
      return r;
    } catch (err) {
      // The statement failed (what came before it rarely can, and then the transaction is lost anyway).
      await client.query('ROLLBACK TO SAVEPOINT askdock_stmt; RELEASE SAVEPOINT askdock_stmt').catch(() => undefined);
      throw err;
    }
  };

  /**
   * A write that must change exactly one row and whose result nobody reads. Inside a transaction, once its statement is
   * prepared on the transaction's connection and no statements are gathering, it is put off and carried by the
   * transaction's next statement (often its COMMIT): no round trip of its own. Should it change no row, that statement
   * then fails, and the transaction with it (the unit that wrote it has already returned, so none of its group is kept:
   * transactions.ts `lost`): only for writes that cannot miss, such as an update of a row the unit has locked, or an insert under an id just made. Otherwise it runs now and
   * a missed row throws `missing()`.
   */
  async writeOne(sql: string, params: unknown[], missing: () => Error): Promise<void> {
    if (this.closed) throw new Error('store: the PostgreSQL store is closed');
    const ctx = this.unit.getStore();
    const client = ctx?.client;
    if (!ctx || !client) {
      if ((await this.query(sql, params)).rowCount !== 1) throw missing();
      return;
    }
    const checked = `WITH w AS (${sql} RETURNING 1) SELECT 1 / COUNT(*) AS one FROM w`;
    const piece = this.batches.has(client) ? null : this.prepared.piece(client, checked, params);
    if (piece && !piece.prepares) return ctx.putOffWrite(piece.text);
    try {
      if (piece) {
        // Prepared by SQL, so it can be put off next time.
        await client.query(ctx.deferred() + piece.text);
        this.prepared.ran(client, [piece]);
      } else await this.together(ctx, client, checked, params);
    } catch (err) {
      if ((err as { code?: unknown }).code === DIVISION_BY_ZERO) throw missing();
      throw err;
    }
  }

  /**
   * Statements a transaction's code sends in one go (`Promise.all` of reads) leave together, in the order they
   * were sent, with what the transaction put off: one round trip. If one fails, the transaction is aborted and every
   * statement of the batch fails with its error (as each after it would have anyway).
   */
  private together(ctx: TxContext, client: pg.PoolClient, sql: string, params?: unknown[]): Promise<QueryResult> {
    let batch = this.batches.get(client);
    if (!batch) {
      const fresh: Batched[] = [];
      batch = fresh;
      this.batches.set(client, fresh);
      // After the code running now (this microtask), before anything it queued later, e.g. its COMMIT.
      queueMicrotask(() => {
        // Already sent ahead of a guarded statement.
        if (this.batches.get(client) !== fresh) return;
        this.batches.delete(client);
        void this.send(ctx, client, fresh);
      });
    }
    return new Promise<QueryResult>((ok, fail) => batch.push({ sql, params, ok, fail }));
  }

  private async send(ctx: TxContext, client: pg.PoolClient, batch: Batched[]): Promise<void> {
    const before = ctx.deferred();
    const pieces = before || batch.length > 1 ? batch.map((b) => this.prepared.piece(client, b.sql, b.params)) : [null];
    if (pieces.some((p) => p === null)) {
      // One at a time, as parameters (in order on the connection).
      if (before) client.query(before).catch(() => undefined);
      for (const b of batch) client.query(this.prepared.config(b.sql, b.params)).then((r) => b.ok(shape(r)), b.fail);
      return;
    }
    try {
      const r = (await client.query(before + pieces.map((p) => p!.text).join('; '))) as unknown as pg.QueryResult | pg.QueryResult[];
      this.prepared.ran(client, pieces);
      // Each piece's result is its last statement's (a PREPARE comes before its EXECUTE).
      const all = Array.isArray(r) ? r : [r];
      let at = all.length;
      const results: QueryResult[] = [];
      for (let i = batch.length - 1; i >= 0; i--) {
        results[i] = shape(all[at - 1]);
        at -= pieces[i]!.prepares ? 2 : 1;
      }
      batch.forEach((b, i) => b.ok(results[i]));
    } catch (err) {
      for (const b of batch) b.fail(err);
    }
  }

  private async guarded(client: pg.PoolClient, sql: string, params?: unknown[]): Promise<QueryResult> {
    await client.query('SAVEPOINT askdock_stmt');
    let r: pg.QueryResult;
    try {
      r = await client.query(this.prepared.config(sql, params));
    } catch (err) {
      await client.query('ROLLBACK TO SAVEPOINT askdock_stmt; RELEASE SAVEPOINT askdock_stmt');
      throw err;
    }
    await client.query('RELEASE SAVEPOINT askdock_stmt');
    return shape(r);
  }

  /** The transaction the code running now is inside, if any. */
  current(): TxContext | undefined {
    const ctx = this.unit.getStore();
    return ctx?.client ? ctx : undefined;
  }

  inTransaction(): boolean {
    return this.current() !== undefined;
  }

  /** Runs `fn` inside transaction `ctx`: its statements go to that transaction's connection. */
  within<T>(ctx: TxContext, fn: () => T): T {
    return this.unit.run(ctx, fn);
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

/** The result of the statement `fromEnd` places from the end of a multi-statement query's. */
function pick(r: pg.QueryResult | pg.QueryResult[], fromEnd: number): QueryResult {
  const one = Array.isArray(r) ? r[r.length - fromEnd] : r;
  return { rows: one.rows, rowCount: one.rowCount ?? 0, command: one.command };
}

function shape(r: pg.QueryResult | pg.QueryResult[]): QueryResult {
  const last = Array.isArray(r) ? r[r.length - 1] : r;
  return { rows: last.rows, rowCount: last.rowCount ?? 0, command: last.command };
}
