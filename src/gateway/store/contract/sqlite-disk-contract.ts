import { existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dump, event, question, seed, writeEverything, type Harness } from './contract-fixtures.ts';
import { expectEveryAckedWrite, groupSeenOnlyAfterCommit, runChildAndKill } from './durability-checks.ts';
import { migratesAnOlderSchema, olderSqliteFile } from './older-schema.ts';
import { openSqliteStore, SCHEMA_VERSION } from '../sqlite.ts';

/** What only a file on disk can show; run by store.contract.test.ts, which makes the files. */
export function sqliteOnDiskContract(makeHarness: () => Harness & { file: string }): void {
  describe('sqlite store on disk', () => {
    let harness: Harness & { file: string };
    beforeEach(() => {
      harness = makeHarness();
    });
    afterEach(() => harness.cleanup());

    it('[R3] keeps everything across closing and reopening the file', async () => {
      const first = await harness.open();
      await seed(first);
      await first.transaction(async () => writeEverything(first));
      const before = await dump(first);
      await first.close();

      const raw = new Database(harness.file, { readonly: true });
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      await raw.close();

      const second = await harness.open();
      expect((await dump(second))).toStrictEqual(before);
      await second.close();
    });

    it('[R3] another connection sees a group\'s writes only once commitGroup returned', () => groupSeenOnlyAfterCommit(harness));

    it('[R3] with background checkpoints, commits leave the WAL to the checkpoint thread, which copies it into the file', async () => {
      // The database header keeps the file's size in pages (offset 28); only a checkpoint changes the file itself.
      const pagesInFile = () => readFileSync(harness.file).readUInt32BE(28);
      const store = openSqliteStore(harness.file, { checkpointInBackground: true });
      expect(store.settings()).toMatchObject({ journalMode: 'WAL', checkpoints: 'background' });
      // The thread may fold the schema's own pages in at any moment (a busy machine makes the big commit slow): let it first.
      await expect.poll(pagesInFile, { timeout: 15_000 }).toBeGreaterThan(1);
      // Held while the big commit runs, so the file can change only through the commit itself (an inline checkpoint).
      await store.holdCheckpoints();
      const before = pagesInFile();
      // More WAL than SQLite's own inline threshold (1000 pages): an inline checkpoint would have grown the file at once.
      await store.transaction(async () => {
        for (let i = 0; i < 1500; i++) (await store.insertQuestion(question(`q-${i}`, { questions: [{ id: 'pick', header: 'Pick', question: 'x'.repeat(3000), options: [{ label: 'A' }, { label: 'B' }] }] })));
      });
      expect(pagesInFile()).toBe(before);
      store.resumeCheckpoints();
      await expect.poll(pagesInFile, { timeout: 15_000 }).toBeGreaterThan(before + 1000);
      await store.close();
      const reopened = await harness.open();
      expect((await reopened.getQuestion('q-1499'))?.id).toBe('q-1499');
      await reopened.close();
    });

    it('[R1] never reuses a pruned seq after reopening', async () => {
      const first = await harness.open();
      for (let i = 1; i <= 3; i++) (await first.appendEvent(event(i)));
      await first.pruneEvents(Number.MAX_SAFE_INTEGER, 0);
      await first.close();
      const second = await harness.open();
      expect((await second.latestSeq())).toBe(3);
      expect((await second.oldestEventSeq())).toBe(4);
      expect((await second.appendEvent(event(4)))).toBe(4);
      await second.close();
    });

    it('[S5][K1] an older file learns who asked each question and each secret its owner when it is migrated', async () =>
      (await migratesAnOlderSchema(harness, () => olderSqliteFile(harness.file))));

    it('refuses a database written by a newer schema version', async () => {
      (await harness.open()).close();
      const raw = new Database(harness.file);
      raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
      await raw.close();
      await expect(async () => harness.open()).rejects.toThrow(/schema version/);
    });

    it('[R3] keeps every acknowledged write after SIGKILL', { timeout: 30_000 }, async () => {
      const result = await runChildAndKill(harness.file, 50);
      expect(result.signal, `child exited ${result.code} before the kill: ${result.stderr}`).toBe('SIGKILL');
      expect(result.acked.length).toBeGreaterThanOrEqual(50);
      // The kill skipped the checkpoint on close, so reopening has to recover from the WAL.
      expect(existsSync(`${harness.file}-wal`)).toBe(true);

      await expectEveryAckedWrite(await harness.open(), result.acked);
      const raw = new Database(harness.file, { readonly: true });
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      await raw.close();
    });
  });
}
