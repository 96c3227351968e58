import type Database from 'better-sqlite3';
import { SQLITE_STEPS } from './sqlite-migrations/steps.ts';

type Db = Database.Database;

/** Each step's SQL, in order (sqlite-migrations/steps.ts). */
const MIGRATIONS: readonly string[] = SQLITE_STEPS.map((step) => step.sql);

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database at `file` to SCHEMA_VERSION, one step per write transaction; refuses a newer schema. */
export function migrate(db: Db, file: string): void {
  const step = db.transaction((version: number) => {
    // Read again inside the write lock: another process may have migrated meanwhile.
    if ((db.pragma('user_version', { simple: true }) as number) !== version) return;
    db.exec(MIGRATIONS[version]);
    db.pragma(`user_version = ${version + 1}`);
  });
  for (;;) {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > MIGRATIONS.length) {
      throw new Error(
        `${file} has schema version ${version}, newer than this askdock knows (${MIGRATIONS.length}); upgrade askdock or use another database file`,
      );
    }
    if (version === MIGRATIONS.length) return;
    step.immediate(version);
  }
}
