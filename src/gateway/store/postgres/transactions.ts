import type { Postgres } from './pool.ts';

/**
 * Every writing transaction of every gateway first locks the one `askdock_seq` row, and holds it until it ends. So
 * writes across gateways happen one transaction at a time, in seq order: what a transaction reads after BEGIN is what
 * the database holds (a resolve race is decided there, D2), no two transactions wait on each other's rows (no
 * deadlocks), and a seq is visible only after every smaller one committed or was rolled back (R2 never skips one).
 */
const BEGIN = 'BEGIN; SELECT value FROM askdock_seq WHERE id = 1 FOR UPDATE';

/**
 * Transactions, nested savepoints and the gateway's group commit, with the Store contract's rules, on one connection
 * taken from the pool for as long as the transaction (or group) is open. One at a time per store: the next outer
 * transaction or group waits, without holding up the event loop, until this one ended.
 */
export class Transactions {
  private depth = 0;
  private grouped = false;
  /** Settles when the open outer transaction or group ended. */
  private turn: Promise<void> = Promise.resolve();
  private endTurn: () => void = () => {};

  constructor(private readonly pg: Postgres) {}

  async transaction<T>(fn: () => Promise<T> | T): Promise<T> {
    const outer = this.depth === 0 && !this.grouped;
    const savepoint = `askdock_sp${this.depth}`;
    if (outer) await this.begin();
    else await this.pg.query(`SAVEPOINT ${savepoint}`);
    this.depth++;
    let result: T;
    try {
      result = await fn();
    } catch (err) {
      this.depth--;
      await this.undo(outer, savepoint);
      throw err;
    }
    this.depth--;
    if (outer) {
      try {
        await this.commit();
      } finally {
        this.ended();
      }
    } else await this.pg.query(`RELEASE SAVEPOINT ${savepoint}`);
    return result;
  }

  private async begin(): Promise<void> {
    // Wait for the transaction before this one to end, then take the turn.
    for (;;) {
      const turn = this.turn;
      await turn;
      if (turn === this.turn) break;
    }
    this.turn = new Promise<void>((resolve) => (this.endTurn = resolve));
    let client;
    try {
      client = await this.pg.connect();
    } catch (err) {
      this.endTurn();
      throw err;
    }
    this.pg.tx = client;
    try {
      await client.query(BEGIN);
    } catch (err) {
      // BEGIN may have run before the lock wait failed: leave no half-open transaction behind.
      await this.rollbackQuietly();
      this.ended();
      throw err;
    }
  }

  private ended(): void {
    const client = this.pg.tx;
    this.pg.tx = null;
    client?.release();
    this.endTurn();
  }

  private async rollbackQuietly(): Promise<void> {
    try {
      await this.pg.tx?.query('ROLLBACK');
    } catch {
      // the connection is gone, and the transaction with it
      const client = this.pg.tx;
      this.pg.tx = null;
      client?.release(true);
    }
  }

  /** PostgreSQL answers COMMIT of a transaction that hit an error with ROLLBACK, not an error: make it one. */
  private async commit(): Promise<void> {
    const r = await this.pg.tx!.query('COMMIT');
    if (r.command !== 'COMMIT') throw new Error('store: PostgreSQL rolled the transaction back instead of committing it');
  }

  private async undo(outer: boolean, savepoint: string): Promise<void> {
    if (outer) {
      await this.rollbackQuietly();
      this.ended();
      return;
    }
    try {
      await this.pg.query(`ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}`);
    } catch {
      // The connection is gone, and the transaction with it: nothing of it was kept.
    }
  }

  async beginGroup(): Promise<void> {
    if (this.depth > 0 || this.grouped) throw new Error('store: beginGroup inside an open transaction');
    this.grouped = true;
    try {
      await this.begin();
    } catch (err) {
      this.grouped = false;
      throw err;
    }
  }

  /** Commits what the group holds. */
  async commitGroup(): Promise<void> {
    if (!this.grouped) throw new Error('store: commitGroup without beginGroup');
    if (this.pg.tx) {
      try {
        await this.commit();
      } finally {
        this.ended();
      }
    }
    this.grouped = false;
  }

  async rollbackGroup(): Promise<void> {
    if (!this.grouped) throw new Error('store: rollbackGroup without beginGroup');
    this.grouped = false;
    // A failed COMMIT or a lost connection may already have ended it.
    if (this.pg.tx) await this.rollbackQuietly();
    this.ended();
  }

  /** On close: an open group or transaction is abandoned, which PostgreSQL rolls back. */
  closing(): void {
    this.depth = 0;
    this.grouped = false;
    this.endTurn();
  }
}
