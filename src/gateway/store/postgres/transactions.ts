import type { SyncPostgres } from './bridge.ts';
import { holding, released, type YieldingHolder } from './in-process.ts';

/**
 * Every writing transaction of every gateway first locks the one `askdock_seq` row, and holds it until it ends. So
 * writes across gateways happen one transaction at a time, in seq order: what a transaction reads after BEGIN is what
 * the database holds (a resolve race is decided there, D2), no two transactions wait on each other's rows (no
 * deadlocks), and a seq is visible only after every smaller one committed or was rolled back (R2 never skips one).
 */
const BEGIN = [{ sql: 'BEGIN' }, { sql: 'SELECT value FROM askdock_seq WHERE id = 1 FOR UPDATE' }];

function isThenable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Transactions, nested savepoints and the gateway's group commit, with the Store contract's rules. */
export class Transactions implements YieldingHolder {
  private depth = 0;
  private grouped = false;
  /** A PostgreSQL transaction is open on the connection (a group's, or an outer transaction's). */
  private open = false;
  private readonly yieldListeners = new Set<(committed: boolean) => void>();

  constructor(
    private readonly pg: SyncPostgres,
    /** in-process.ts: which database, for gateways sharing this process. */
    private readonly key: string,
  ) {}

  /** Called after the open group was committed early for another gateway of this process (in-process.ts). */
  onYield(fn: (committed: boolean) => void): () => void {
    this.yieldListeners.add(fn);
    return () => this.yieldListeners.delete(fn);
  }

  yieldGroup(): void {
    if (!this.open) return;
    if (this.depth > 0 || !this.grouped) throw new Error('store: another gateway of this process ran a statement inside this one\'s transaction');
    let committed = true;
    try {
      this.commit();
    } catch {
      committed = false;
      this.rollbackQuietly();
    }
    this.ended();
    for (const fn of this.yieldListeners) fn(committed);
  }

  transaction<T>(fn: () => T): T {
    // A group committed early for another gateway goes on in a new transaction.
    if (this.depth === 0 && this.grouped && !this.open) this.begin();
    const outer = this.depth === 0 && !this.grouped;
    const savepoint = `askdock_sp${this.depth}`;
    if (outer) this.begin();
    else this.pg.query(`SAVEPOINT ${savepoint}`);
    this.depth++;
    let result: T;
    try {
      result = fn();
      if (isThenable(result)) throw new TypeError('store: a transaction function must not return a promise (its writes would land outside the transaction)');
    } catch (err) {
      this.depth--;
      this.undo(outer, savepoint);
      throw err;
    }
    this.depth--;
    if (outer) {
      try {
        this.commit();
      } finally {
        this.ended();
      }
    } else this.pg.query(`RELEASE SAVEPOINT ${savepoint}`);
    return result;
  }

  private begin(): void {
    try {
      this.pg.run(BEGIN, true);
    } catch (err) {
      // BEGIN may have run before the lock wait failed: leave no half-open transaction behind.
      this.rollbackQuietly();
      throw err;
    }
    this.open = true;
    holding(this.key, this);
  }

  private ended(): void {
    this.open = false;
    released(this.key, this);
  }

  private rollbackQuietly(): void {
    try {
      this.pg.run([{ sql: 'ROLLBACK' }], false);
    } catch {
      // the connection is gone, and the transaction with it
    }
  }

  /** PostgreSQL answers COMMIT of a transaction that hit an error with ROLLBACK, not an error: make it one. */
  private commit(): void {
    const [r] = this.pg.run([{ sql: 'COMMIT' }], false);
    if (r.command !== 'COMMIT') throw new Error('store: PostgreSQL rolled the transaction back instead of committing it');
  }

  private undo(outer: boolean, savepoint: string): void {
    if (outer) {
      this.rollbackQuietly();
      this.ended();
      return;
    }
    try {
      this.pg.run([{ sql: `ROLLBACK TO SAVEPOINT ${savepoint}` }, { sql: `RELEASE SAVEPOINT ${savepoint}` }]);
    } catch {
      // The connection is gone, and the transaction with it: nothing of it was kept.
    }
  }

  beginGroup(): void {
    if (this.depth > 0 || this.grouped) throw new Error('store: beginGroup inside an open transaction');
    this.begin();
    this.grouped = true;
  }

  /** Commits what the group holds since it began or was last committed early (nothing: nothing to do). */
  commitGroup(): void {
    if (!this.grouped) throw new Error('store: commitGroup without beginGroup');
    if (this.open) {
      try {
        this.commit();
      } finally {
        this.ended();
      }
    }
    this.grouped = false;
  }

  rollbackGroup(): void {
    if (!this.grouped) throw new Error('store: rollbackGroup without beginGroup');
    this.grouped = false;
    // A failed COMMIT or a lost connection may already have ended it.
    if (this.open) this.rollbackQuietly();
    this.ended();
  }

  /** On close: an open group or transaction is abandoned, which PostgreSQL rolls back. */
  closing(): void {
    this.depth = 0;
    this.grouped = false;
    this.ended();
  }
}
