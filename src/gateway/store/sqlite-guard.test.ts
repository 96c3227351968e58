import { copyFileSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGateway } from '../gateway.ts';
import { testConfig } from '../../testing/gateway-harness.ts';
import { openSqliteStore } from './sqlite.ts';
import { silentLogger } from '../infra/logger.ts';
import { ackedFileFor, StoreRefusedError } from './sqlite-guard.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'askdock-guard-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const quiet = silentLogger();

function refusal(fn: () => unknown): StoreRefusedError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StoreRefusedError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

/** A database with some events, closed cleanly (so everything is in the main file). */
async function seeded(file: string, events = 50): Promise<void> {
  const store = openSqliteStore(file);
  await store.transaction(async () => {
    for (let i = 0; i < events; i++) (await store.appendEvent({ event: 'tick', payload: { pad: 'z'.repeat(500), i }, audience: { sessionKey: null }, atMs: i }));
  });
  await store.close();
}

describe('SQLite storage guards', () => {
  it('[storage] a second gateway on the same file is refused with a clear message, and may start once the first closed', async () => {
    const db = join(dir, 'askdock.db');
    const first = await startGateway({ port: 0, dbPath: db, config: testConfig, log: quiet });
    try {
      const second = startGateway({ port: 0, dbPath: db, config: testConfig, log: quiet });
      await expect(second).rejects.toThrow(StoreRefusedError);
      await expect(second).rejects.toThrow(`${db} is in use by another askdock gateway`);
    } finally {
      await first.close();
    }
    const again = await startGateway({ port: 0, dbPath: db, config: testConfig, log: quiet });
    await again.close();
  });

  it('[storage] a file that is not a database is refused, naming the path and how to restore', () => {
    const db = join(dir, 'askdock.db');
    writeFileSync(db, 'this is not a database file at all, just text that someone wrote here'.repeat(100));
    const err = refusal(() => openSqliteStore(db));
    expect(err.code).toBe('DB_DAMAGED');
    expect(err.message).toContain(db);
    expect(err.message).toMatch(/restore/i);
  });

  it('[storage] PRAGMA quick_check at start refuses a file with damaged pages', async () => {
    const db = join(dir, 'askdock.db');
    await seeded(db, 200);
    const size = statSync(db).size;
    expect(size).toBeGreaterThan(16 * 4096);
    // Scribble over pages in the middle, keeping the header intact: the file still opens, its content is wrong.
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(4096 * 3, 0xa5), 0, 4096 * 3, 4096 * 4);
    closeSync(fd);
    const err = refusal(() => openSqliteStore(db));
    expect(err.code).toBe('DB_DAMAGED');
    expect(err.message).toContain(db);
    expect(err.message).toContain('backup');
  });

  it('[storage] a lost WAL is noticed at start: the last acknowledged seq is kept outside it', { timeout: 60_000 }, async () => {
    const db = join(dir, 'askdock.db');
    const store = openSqliteStore(db);
    await store.transaction(async () => {
      for (let i = 0; i < 5; i++) (await store.appendEvent({ event: 'tick', payload: { i }, audience: { sessionKey: null }, atMs: i }));
    });
    // The acknowledged seq reaches its own file soon after the commit.
    await expect.poll(() => readFileSync(ackedFileFor(db), { encoding: 'utf8', flag: 'a+' }).trim(), { timeout: 30_000 }).toBe('5');
    // A copy of the main file without its -wal: what a lost WAL (or a careless backup) leaves.
    const copy = join(dir, 'copy.db');
    copyFileSync(db, copy);
    copyFileSync(ackedFileFor(db), ackedFileFor(copy));
    await store.close();
    expect(existsSync(`${copy}-wal`)).toBe(false);
    const err = refusal(() => openSqliteStore(copy));
    expect(err.code).toBe('DB_BEHIND');
    expect(err.message).toContain('seq 5');
    expect(err.message).toContain(`${copy}-wal`);
    // The original, with its WAL folded in on close, opens as before.
    const reopened = openSqliteStore(db);
    expect((await reopened.latestSeq())).toBe(5);
    await reopened.close();
  });
});
