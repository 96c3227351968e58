import type pg from 'pg';

/** PostgreSQL's "savepoint does not exist". */
const NO_SAVEPOINT = '3B001';

/** Why a group cannot be committed: a write put off by one of its units failed once that unit had returned. */
const lostBy = (cause: unknown) =>
  new Error(`store: a write put off by a unit that had returned failed (${cause instanceof Error ? cause.message : String(cause)}): its group is undone`, { cause });

/**
 * The units of one transaction or group (transactions.ts), each with a savepoint of its own, and whether the group is
 * lost. A one-row write a unit put off (pool.ts `writeOne`) is sent with a later statement, often a later unit's
 * SAVEPOINT; should it fail then, the unit that wrote it has already returned, believing it kept, so nothing of the group
 * may be committed: from then on every unit asked for, and the commit, fail with the one error that says why.
 */
export class LostGroup {
  /** Savepoints are named per unit (`askdock_sp<n>`): a unit's undo can only ever roll back to its own. */
  private units = 0;
  /** Set once a put-off write failed after the unit that wrote it had returned: the group cannot be committed. */
  private lost: Error | null = null;

  /** Throws why the group is lost, if it is. */
  check(): void {
    if (this.lost) throw this.lost;
  }

  isLost(): boolean {
    return this.lost !== null;
  }

  /** The savepoint of the next unit. */
  nextSavepoint(): string {
    return `askdock_sp${this.units++}`;
  }

  /** Marks the group lost by `cause` (unless it was already, by an earlier one): the error that says so. */
  lose(cause: unknown): Error {
    return (this.lost ??= lostBy(cause));
  }

  /** The transaction or group ended: the next starts with no unit and not lost. */
  reset(): void {
    this.units = 0;
    this.lost = null;
  }
}

/**
 * Rolls a unit that threw back to its savepoint, and releases it. False when the savepoint does not exist: the statement
 * that set it was sent after one that failed first, a write put off by an earlier unit that had already returned, so
 * that unit's writes are lost while its events are held for the commit (the group must be lost, `LostGroup.lose`). True
 * too when the connection is gone, and the transaction with it: nothing of it was kept (then `gone` is called).
 */
export async function undoUnit(client: pg.ClientBase, savepoint: string, gone: () => void = () => {}): Promise<boolean> {
  try {
    await client.query(`ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}`);
  } catch (err) {
    if ((err as { code?: unknown }).code === NO_SAVEPOINT) return false;
    gone();
  }
  return true;
}
