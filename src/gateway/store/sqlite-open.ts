import Database from 'better-sqlite3';
import { checkIntegrity, checkNotBehind, damaged, isDamage } from './sqlite-guard.ts';
import { migrate } from './sqlite-migrations.ts';

/**
 * The connection to `file` (`:memory:` for throwaway use), in WAL mode and migrated; a damaged file, or one behind
 * what was acknowledged (R3), is refused with StoreRefusedError, and `lock` is released whenever it refuses.
 */
export function openCheckedDatabase(file: string, syncFull: boolean, lock: { release(): void } | undefined): Database.Database {
  const onDisk = file !== ':memory:';
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (error) {
    lock?.release();
    throw isDamage(error) ? damaged(file, (error as Error).message) : error;
  }
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL keeps every commit across a process kill (R3) and skips the per-commit fsync that FULL adds
    // for power loss; `syncFull` restores it where power loss matters more than throughput.
    db.pragma(`synchronous = ${syncFull ? 'FULL' : 'NORMAL'}`);
    if (onDisk) checkIntegrity(db, file);
    migrate(db, file);
    if (onDisk) checkNotBehind(file, db.prepare<[], { seq: number }>(`SELECT seq FROM sqlite_sequence WHERE name = 'events'`).get()?.seq ?? 0);
  } catch (error) {
    db.close();
    lock?.release();
    throw isDamage(error) ? damaged(file, (error as Error).message) : error;
  }
  return db;
}
