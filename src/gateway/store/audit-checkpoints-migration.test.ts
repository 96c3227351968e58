import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freshSchema } from '../../testing/postgres.ts';
import { openPostgresStore } from './postgres/store.ts';
import { openSqliteStore } from './sqlite.ts';
import type { Store } from './types.ts';
import { auditAcknowledgementSerial as pgAcknowledgementSerial, auditCheckpointsSerial as pgCheckpointsSerial } from './postgres/migrations/audit.ts';
import { POSTGRES_STEPS } from './postgres/migrations/steps.ts';
import { auditAcknowledgementSerial, auditCheckpointsNeverReused, auditCheckpointsSerial } from './sqlite-migrations/audit.ts';
import { SQLITE_STEPS } from './sqlite-migrations/steps.ts';

/** The checkpoints table as it was before the serial: one row per size. */
const KEPT_BY_SIZE = (sizeType: string) => `
  DROP TABLE audit_checkpoints;
  CREATE TABLE audit_checkpoints (size ${sizeType} PRIMARY KEY, note text NOT NULL, signed_at_ms ${sizeType} NOT NULL);
  INSERT INTO audit_checkpoints (size, note, signed_at_ms) VALUES (5, 'five', 2), (2, 'two', 1);`;

/**
 * An older database: `downgrade` makes it as it was before the checkpoints' serial, `rewind` runs `before` (SQL) on it
 * and leaves the acknowledgement's step to run again; the steps from there are run again on `open`.
 */
type Older = { open(): Promise<Store>; downgrade(): Promise<void>; rewind(before: string): Promise<void>; cleanup(): Promise<void> | void };

const databases: [string, () => Promise<Older>][] = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'askdock-checkpoints-'));
      const file = join(dir, 'askdock.db');
      return {
        open: async () => openSqliteStore(file),
        async downgrade() {
          const raw = new Database(file);
          raw.exec(KEPT_BY_SIZE('INTEGER'));
          raw.pragma(`user_version = ${SQLITE_STEPS.indexOf(auditCheckpointsSerial)}`);
          raw.close();
        },
        async rewind(before) {
          const raw = new Database(file);
          raw.exec(before);
          raw.pragma(`user_version = ${SQLITE_STEPS.indexOf(auditAcknowledgementSerial)}`);
          raw.close();
        },
        cleanup: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const schema = await freshSchema('checkpoints');
      return {
        open: () => openPostgresStore(schema.url),
        async downgrade() {
          const raw = new pg.Client({ connectionString: schema.url });
          await raw.connect();
          await raw.query(`${KEPT_BY_SIZE('bigint')} UPDATE askdock_schema SET version = ${POSTGRES_STEPS.indexOf(pgCheckpointsSerial)};`);
          await raw.end();
        },
        async rewind(before) {
          const raw = new pg.Client({ connectionString: schema.url });
          await raw.connect();
          await raw.query(`${before} UPDATE askdock_schema SET version = ${POSTGRES_STEPS.indexOf(pgAcknowledgementSerial)};`);
          await raw.end();
        },
        cleanup: () => schema.drop(),
      };
    },
  ],
];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

describe.each(databases)('the checkpoints of an older %s database (L2, L7)', (_name, make) => {
  it('[L2][L7] checkpoints kept by size before the serial keep their order, the largest stays the latest, and one signed again at its size is kept after them', async () => {
    const db = await make();
    cleanups.push(() => db.cleanup());
    await (await db.open()).close();
    await db.downgrade();
    const store = await db.open();
    cleanups.push(() => store.close());
    expect(await store.auditCheckpoints()).toEqual([
      { serial: 1, size: 2, note: 'two', signedAtMs: 1 },
      { serial: 2, size: 5, note: 'five', signedAtMs: 2 },
    ]);
    expect(await store.latestAuditCheckpoint()).toEqual({ serial: 2, size: 5, note: 'five', signedAtMs: 2 });
    await store.insertAuditCheckpoint({ size: 5, note: 'again', signedAtMs: 3 });
    expect(await store.latestAuditCheckpoint()).toEqual({ serial: 3, size: 5, note: 'again', signedAtMs: 3 });
  });
});

describe('a gateway of the version before the serial on a migrated PostgreSQL database (docs/deploy.md, upgrading)', () => {
  it('[L2][D1] its checkpoint insert, one row per size, is refused by the migrated table: deploy.md has every gateway stopped before the upgrade', async () => {
    const schema = await freshSchema('oldinsert');
    cleanups.push(() => schema.drop());
    await (await openPostgresStore(schema.url)).close();
    const raw = new pg.Client({ connectionString: schema.url });
    await raw.connect();
    cleanups.push(() => raw.end());
    // The statement as that version sends it (postgres/audit.ts before the serial).
    const old = raw.query(`INSERT INTO audit_checkpoints (size, note, signed_at_ms) VALUES ($1, $2, $3) ON CONFLICT (size) DO NOTHING`, [3, 'three', 1]);
    await expect(old).rejects.toMatchObject({ code: '42P10', message: 'there is no unique or exclusion constraint matching the ON CONFLICT specification' });
    expect((await raw.query(`SELECT size FROM audit_checkpoints`)).rows).toEqual([]);
  });
});

describe.each(databases)('the acknowledgement of an older %s database (L7)', (_name, make) => {
  it('[L7] an acknowledgement kept by its time becomes one kept by the last checkpoint stored before it and its entry', async () => {
    const db = await make();
    cleanups.push(() => db.cleanup());
    const first = await db.open();
    await first.appendAudit({ atMs: 1, event: 'question.asked', identity: 'agent', questionId: 'q1' });
    await first.appendAudit({ atMs: 2, event: 'audit.acknowledged', identity: 'admin', detail: { problem: 'x' } });
    await first.appendAudit({ atMs: 3, event: 'question.asked', identity: 'agent', questionId: 'q2' });
    for (const [size, signedAtMs] of [[1, 100], [1, 150], [2, 300], [3, 400]]) await first.insertAuditCheckpoint({ size, note: `n${size}-${signedAtMs}`, signedAtMs });
    await first.close();
    // Acknowledged at 200 by the clock of the gateway that did: the two checkpoints signed before it are set aside.
    await db.rewind(`INSERT INTO meta (key, value) VALUES ('audit.acknowledgedAtMs', '200');`);
    const store = await db.open();
    cleanups.push(() => store.close());
    expect(JSON.parse((await store.getMeta('audit.acknowledgement'))!)).toEqual({ entry: 1, afterSerial: 2 });
    expect(await store.getMeta('audit.acknowledgedAtMs')).toBeUndefined();
  });

  it('[L7] a database never acknowledged gets no acknowledgement', async () => {
    const db = await make();
    cleanups.push(() => db.cleanup());
    await (await db.open()).close();
    await db.rewind('');
    const store = await db.open();
    cleanups.push(() => store.close());
    expect(await store.getMeta('audit.acknowledgement')).toBeUndefined();
  });
});

describe('the checkpoints of an older SQLite database, numbered without AUTOINCREMENT (L2, L7)', () => {
  it('[L2][L7] the numbers kept stay, and the next checkpoint takes one never used: past the largest kept, and past the last acknowledgement\'s when the newest were deleted before the upgrade', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'askdock-checkpoints-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'askdock.db');
    const first = openSqliteStore(file);
    for (const size of [1, 2, 3, 4]) await first.insertAuditCheckpoint({ size, note: `n${size}`, signedAtMs: size });
    await first.close();
    // As the database was before the step: the newest two deleted after an acknowledgement made once three were stored.
    const raw = new Database(file);
    raw.exec(`
      DELETE FROM audit_checkpoints WHERE serial >= 3;
      INSERT INTO meta (key, value) VALUES ('audit.acknowledgement', '{"entry":7,"afterSerial":3}');
      CREATE TABLE plain (serial INTEGER PRIMARY KEY, size INTEGER NOT NULL, note TEXT NOT NULL, signed_at_ms INTEGER NOT NULL, UNIQUE (size, note));
      INSERT INTO plain SELECT serial, size, note, signed_at_ms FROM audit_checkpoints;
      DROP TABLE audit_checkpoints;
      ALTER TABLE plain RENAME TO audit_checkpoints;
      DELETE FROM sqlite_sequence WHERE name = 'audit_checkpoints';`);
    raw.pragma(`user_version = ${SQLITE_STEPS.indexOf(auditCheckpointsNeverReused)}`);
    raw.close();
    const store = openSqliteStore(file);
    cleanups.push(() => store.close());
    expect((await store.auditCheckpoints()).map((c) => [c.serial, c.note])).toEqual([[1, 'n1'], [2, 'n2']]);
    await store.insertAuditCheckpoint({ size: 5, note: 'n5', signedAtMs: 5 });
    expect(await store.latestAuditCheckpoint()).toEqual({ serial: 4, size: 5, note: 'n5', signedAtMs: 5 });
  });
});
