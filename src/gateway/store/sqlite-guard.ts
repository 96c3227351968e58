import Database from 'better-sqlite3';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';

/** The database cannot be used as it is; the message says which file, why, and what to do. */
export class StoreRefusedError extends Error {
  constructor(
    message: string,
    readonly code: 'DB_IN_USE' | 'DB_DAMAGED' | 'DB_BEHIND',
  ) {
    super(message);
    this.name = 'StoreRefusedError';
  }
}

export const lockFileFor = (file: string) => `${file}.lock`;
export const ackedFileFor = (file: string) => `${file}.acked`;

/**
 * One gateway per database file: an exclusive SQLite lock on `<file>.lock`, held for as long as the store is open.
 * The operating system drops it when the process dies, so a SIGKILLed gateway never leaves a stale lock behind.
 * (A lock on the database itself would shut out the gateway's own checkpoint thread.)
 */
export function lockDatabase(file: string): { release(): void } {
  const lock = new Database(lockFileFor(file));
  try {
    lock.pragma('busy_timeout = 0');
    lock.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    lock.close();
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
      throw new StoreRefusedError(
        `${file} is in use by another askdock gateway (it holds ${lockFileFor(file)}): stop that gateway first, or give this one another --db`,
        'DB_IN_USE',
      );
    throw err;
  }
  return { release: () => lock.open && lock.close() };
}

/** An error SQLite gives for a file that is not (or no longer) a sound database. */
export function isDamage(err: unknown): boolean {
  const code = String((err as { code?: unknown })?.code ?? '');
  return code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB');
}

export function damaged(file: string, detail: string): StoreRefusedError {
  return new StoreRefusedError(
    `${file} is damaged (${detail}); askdock will not start on it. To restore: stop the gateway, copy your backup over ${file} ` +
      `and delete ${file}-wal and ${file}-shm; or move the file aside to start with an empty database ` +
      `(\`sqlite3 ${file} .recover\` may save what is left of it).`,
    'DB_DAMAGED',
  );
}

/** `PRAGMA quick_check` at start: a damaged file is refused before anything is read from it or written to it. */
export function checkIntegrity(db: Database.Database, file: string): void {
  const rows = db.pragma('quick_check(5)') as { quick_check: string }[];
  const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  if (problems.length > 0) throw damaged(file, problems.join('; '));
}

/** The last seq this database acknowledged, as kept beside it (outside the WAL), or null when none was kept. */
export function readAckedSeq(file: string): number | null {
  try {
    const n = Number(readFileSync(ackedFileFor(file), 'utf8').trim());
    return Number.isSafeInteger(n) && n >= 0 ? n : null;
  } catch {
    return null;
  }
}

/**
 * WAL loss: the WAL holds the newest commits until they are checkpointed; a `-wal` file deleted or left behind in a
 * copy takes them with it, silently. The last acknowledged seq, kept in a file of its own, shows it at the next start.
 */
export function checkNotBehind(file: string, latestSeq: number): void {
  const acked = readAckedSeq(file);
  if (acked === null || latestSeq >= acked) return;
  throw new StoreRefusedError(
    `${file} is behind what it acknowledged: events up to seq ${acked} were confirmed to clients, the file holds only up to ${latestSeq}. ` +
      `Its write-ahead log (${file}-wal) was probably lost, or the file was restored from an older copy. Put the -wal file back ` +
      `beside it; or, to accept the loss and start anyway, delete ${ackedFileFor(file)}.`,
    'DB_BEHIND',
  );
}

/** How often the acknowledged seq is copied out; it may lag by this much, never run ahead of what is committed. */
export const ACKED_EVERY_MS = 250;

/**
 * Copies the committed latest seq to `<file>.acked` now and then, and once more on stop. The file stays open and each
 * copy overwrites it in place: the seq only grows, so the text never gets shorter. Rewriting the file from empty each
 * time (writeFileSync) cost 1.4 ms per copy on ext4, which flushes a file truncated and written again when it is closed.
 */
export function keepAckedSeq(file: string, committedSeq: () => number | null): { stop(): void } {
  let written = readAckedSeq(file);
  let fd: number | null = null;
  const write = () => {
    const seq = committedSeq();
    if (seq === null || seq === written) return;
    try {
      const text = Buffer.from(`${seq}\n`);
      // Opened (and emptied) at the first copy; from then on each copy overwrites the last in place.
      fd ??= openSync(ackedFileFor(file), 'w');
      writeSync(fd, text, 0, text.length, 0);
      written = seq;
    } catch {
      // A full or read-only disk shows up in the database's own writes; this check is only a watchman.
    }
  };
  const timer = setInterval(write, ACKED_EVERY_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      write();
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
