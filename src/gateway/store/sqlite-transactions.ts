import type Database from 'better-sqlite3';
import type { KnownRecords } from './known-records.ts';
import type { SyncStore } from './types.ts';

type TransactionMethods = Pick<SyncStore, 'transaction' | 'openUnit' | 'beginGroup' | 'commitGroup' | 'rollbackGroup'>;

/**
 * R3 on SQLite: transactions, the units of the Store's asynchronous `transaction`, and group commit. Whatever is rolled
 * back, `known` forgets every row it kept (known-records.ts).
 */
export function sqliteTransactions(db: Database.Database, known: KnownRecords | null): TransactionMethods {
  // IMMEDIATE takes the write lock up front, so two processes never deadlock upgrading a read lock; nested calls become savepoints.
  const tx = db.transaction((fn: () => unknown) => fn());
  const group = { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK') };
  let grouped = false;
  let units = 0;
  return {
    transaction<T>(fn: () => T): T {
      try {
        return tx.immediate(fn) as T;
      } catch (error) {
        known?.clear();
        throw error;
      }
    },

    openUnit() {
      // Inside a group (or another unit): a savepoint; else its own IMMEDIATE transaction.
      const nested = db.inTransaction;
      const name = `askdock_unit${units++}`;
      db.exec(nested ? `SAVEPOINT ${name}` : 'BEGIN IMMEDIATE');
      return {
        release() {
          units--;
          db.exec(nested ? `RELEASE ${name}` : 'COMMIT');
        },
        rollback() {
          units--;
          known?.clear();
          if (!db.inTransaction) return;
          db.exec(nested ? `ROLLBACK TO ${name}; RELEASE ${name}` : 'ROLLBACK');
        },
      };
    },

    beginGroup() {
      if (db.inTransaction) throw new Error('store: beginGroup inside an open transaction');
      group.begin.run();
      grouped = true;
    },
    commitGroup() {
      if (!grouped) throw new Error('store: commitGroup without beginGroup');
      // A failed COMMIT leaves the transaction open: the group stays until rollbackGroup ends it.
      group.commit.run();
      grouped = false;
    },
    rollbackGroup() {
      if (!grouped) throw new Error('store: rollbackGroup without beginGroup');
      grouped = false;
      known?.clear();
      // SQLite may already have rolled back by itself (e.g. after SQLITE_FULL).
      if (db.inTransaction) group.rollback.run();
    },
  };
}
