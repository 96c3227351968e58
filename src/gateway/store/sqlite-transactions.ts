import type Database from 'better-sqlite3';
import type { KnownRecords } from './known-records.ts';
import type { QuestionIndex } from './sqlite-question-index.ts';
import type { SyncStore } from './types.ts';

type TransactionMethods = Pick<SyncStore, 'transaction' | 'openUnit' | 'beginGroup' | 'commitGroup' | 'rollbackGroup'>;

/**
 * R3 on SQLite: transactions, the units of the Store's asynchronous `transaction`, and group commit. Whatever is rolled
 * back, `known` forgets every row it kept (known-records.ts). `index` hears of each one opened, committed and rolled back
 * (sqlite-question-index.ts writes the search rows of a commit before its COMMIT).
 */
export function sqliteTransactions(db: Database.Database, known: KnownRecords | null, index: QuestionIndex): TransactionMethods {
  // IMMEDIATE takes the write lock up front, so two processes never deadlock upgrading a read lock; nested calls become savepoints.
  const tx = db.transaction((fn: () => unknown) => fn());
  const group = { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK') };
  let grouped = false;
  let units = 0;
  return {
    transaction<T>(fn: () => T): T {
      const outermost = !db.inTransaction;
      index.settle(!outermost);
      index.opened();
      let out: T;
      try {
        out = tx.immediate(() => {
          const result = fn();
          if (outermost) index.committing();
          return result;
        }) as T;
      } catch (error) {
        index.rolledBack();
        index.settle(db.inTransaction);
        known?.clear();
        throw error;
      }
      index.released();
      return out;
    },

    openUnit() {
      // Inside a group (or another unit): a savepoint; else its own IMMEDIATE transaction.
      const nested = db.inTransaction;
      const name = `askdock_unit${units++}`;
      index.settle(nested);
      db.exec(nested ? `SAVEPOINT ${name}` : 'BEGIN IMMEDIATE');
      index.opened();
      return {
        release() {
          units--;
          if (nested) {
            try {
              db.exec(`RELEASE ${name}`);
            } finally {
              index.released();
              index.settle(db.inTransaction);
            }
            return;
          }
          try {
            index.committing();
            db.exec('COMMIT');
          } catch (error) {
            // Nothing of the unit stays: not its rows, not its search rows.
            known?.clear();
            index.rolledBack();
            if (db.inTransaction) db.exec('ROLLBACK');
            index.settle(false);
            throw error;
          }
          index.released();
        },
        rollback() {
          units--;
          known?.clear();
          index.rolledBack();
          if (db.inTransaction) db.exec(nested ? `ROLLBACK TO ${name}; RELEASE ${name}` : 'ROLLBACK');
          index.settle(db.inTransaction);
        },
      };
    },

    beginGroup() {
      if (db.inTransaction) throw new Error('store: beginGroup inside an open transaction');
      index.settle(false);
      group.begin.run();
      index.opened();
      grouped = true;
    },
    commitGroup() {
      if (!grouped) throw new Error('store: commitGroup without beginGroup');
      // A failed COMMIT (or search rows that fail to be written) leaves the transaction open: the group stays until
      // rollbackGroup ends it.
      index.committing();
      group.commit.run();
      index.released();
      grouped = false;
    },
    rollbackGroup() {
      if (!grouped) throw new Error('store: rollbackGroup without beginGroup');
      grouped = false;
      known?.clear();
      index.rolledBack();
      // SQLite may already have rolled back by itself (e.g. after SQLITE_FULL).
      if (db.inTransaction) group.rollback.run();
      index.settle(false);
    },
  };
}
