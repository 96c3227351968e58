import type pg from 'pg';
import { strung } from './literal.ts';
import type { PreparedStatements } from './prepared.ts';
import { pick, shape, type QueryResult } from './results.ts';

/**
 * What code running inside a transaction runs its statements on (transactions.ts); `client` null once it ended.
 * `deferred` hands over (once) the statements the transaction put off until its next one, e.g. `BEGIN; `, to be sent
 * with it in one round trip.
 */
export type TxContext = { readonly client: pg.PoolClient | null; deferred(): string; putOffWrite(statement: string): void };

/** What a one-row write put off (`writeOne`) raises when it changed no row. */
export const DIVISION_BY_ZERO = '22012';

type Batched = { sql: string; params?: unknown[]; ok: (r: QueryResult) => void; fail: (err: unknown) => void };

/**
 * The statements of code running inside a transaction (pool.ts), on that transaction's connection and in order, so it
 * reads its own writes: gathered into as few round trips as can be, each carrying what the transaction put off.
 */
export class TxStatements {
  /** Per transaction's connection, the statements sent by the code running now, leaving together after it (`together`). */
  private readonly batches = new WeakMap<pg.PoolClient, Batched[]>();

  constructor(private readonly prepared: PreparedStatements) {}

  /**
   * `guard`: the statement runs in its own savepoint, so a failing insert leaves the transaction usable, as it would in
   * SQLite.
   */
  query(ctx: TxContext, client: pg.PoolClient, sql: string, params: unknown[] | undefined, guard: boolean): Promise<QueryResult> {
    return guard ? this.inSavepoint(ctx, client, sql, params) : this.together(ctx, client, sql, params);
  }

  private async inSavepoint(ctx: TxContext, client: pg.PoolClient, sql: string, params?: unknown[]): Promise<QueryResult> {
    // Statements sent before this one and still gathering go first: its savepoint must not cover (or undo) them. A
    // guarded statement is not meant to be sent together with others: one sent while it runs would reach the database
    // before its savepoint is rolled back, and fail if it failed.
    const gathering = this.batches.get(client);
    if (gathering) {
      this.batches.delete(client);
      void this.send(ctx, client, gathering);
    }
    // What the transaction put off (BEGIN, a unit's SAVEPOINT, a RELEASE) goes in the same round trip as this statement.
    const before = ctx.deferred();
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
  }

  /**
   * A write that must change exactly one row and whose result nobody reads (pool.ts `writeOne`): once its statement is
   * prepared on the transaction's connection and no statements are gathering, it is put off and carried by the
   * transaction's next statement; else it runs now and a missed row throws `missing()`.
   */
  async writeOne(ctx: TxContext, client: pg.PoolClient, sql: string, params: unknown[], missing: () => Error): Promise<void> {
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
      const r = (await client.query(before + strung(pieces.map((p) => p!.text), '; '))) as unknown as pg.QueryResult | pg.QueryResult[];
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
}
