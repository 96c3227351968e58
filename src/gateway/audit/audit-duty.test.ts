import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newSeed } from '../../audit/ed25519.ts';
import { signerFromSeed } from '../../audit/note.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { freshSchema } from '../../testing/postgres.ts';
import { EventHub } from '../hub/hub.ts';
import { Turn } from '../hub/turn.ts';
import { memoryLogger } from '../infra/logger.ts';
import type { SessionAccess } from '../sessions/session-access.ts';
import { openPostgresStore } from '../store/postgres/store.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { Store } from '../store/types.ts';
import { FAILED_META } from './audit-meta.ts';
import { AuditRoom, CHECKPOINT_EVERY_ENTRIES } from './audit-room.ts';

const ORIGIN = 'askdock.local/audit-duty';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

const stores: [string, () => Promise<Store>][] = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'askdock-audit-duty-'));
      const store = openSqliteStore(join(dir, 'askdock.db'));
      cleanups.push(async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      });
      return store;
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const schema = await freshSchema('auditduty');
      const store = await openPostgresStore(schema.url);
      cleanups.push(async () => {
        await store.close();
        await schema.drop();
      });
      return store;
    },
  ],
];

describe.each(stores)('the checkpoint duty under many units (L2) on %s', (_name, openStore) => {
  it('[L2] entries past the checkpoint\'s count, appended by units while the duty waits for its turn, bring one checkpoint, not one per entry', { timeout: 120_000 }, async () => {
    const store = await openStore();
    // How often the duty read the log's size to sign a checkpoint over it (each sign reads it once, with the lines new since).
    let signs = 0;
    const counted = new Proxy(store, {
      get(target, name) {
        const value = Reflect.get(target, name);
        if (name === 'auditSize')
          return () => {
            signs++;
            return target.auditSize();
          };
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const clock = new FakeClock();
    const { log } = memoryLogger();
    const hub = new EventHub({ store, clock, view: (_viewer, _ev, frame) => frame(), checkPayloads: false, log, turn: new Turn(), onRollback: () => {} });
    await hub.start();
    const keys = [{ ...signerFromSeed(ORIGIN, newSeed()), validFrom: '2026-12-01T00:00:00.000Z' }];
    const room = new AuditRoom({ store: counted, hub, access: {} as SessionAccess, clock, log, keys, origin: ORIGIN, duties: () => null });
    await room.start();
    cleanups.push(() => {
      room.stop();
      hub.stopListening();
    });
    const atStart = signs;
    // Units asked for at once, as a busy gateway's clients ask: one entry each, 64 past the count that calls the duty.
    const units = CHECKPOINT_EVERY_ENTRIES + 64;
    await Promise.all(
      Array.from({ length: units }, (_, i) => hub.commit(() => room.recordUnread({ atMs: clock.now(), event: 'question.asked', identity: 'agent', questionId: `q-${i}` }))),
    );
    // Whatever the duty was asked to do has run: one more sign after it covers every entry.
    await room.signNow();
    expect((await store.latestAuditCheckpoint())?.size).toBe(units);
    // The checkpoint the count called for, and the one asked for above.
    expect(signs - atStart).toBeLessThanOrEqual(2);
  });

  it('[L2][L7] while a failed check waits for an admin, the count calls the duty once per checkpoint\'s worth of entries, not once per entry', { timeout: 120_000 }, async () => {
    const store = await openStore();
    const clock = new FakeClock();
    const { log } = memoryLogger();
    const hub = new EventHub({ store, clock, view: (_viewer, _ev, frame) => frame(), checkPayloads: false, log, turn: new Turn(), onRollback: () => {} });
    await hub.start();
    const keys = [{ ...signerFromSeed(ORIGIN, newSeed()), validFrom: '2026-12-01T00:00:00.000Z' }];
    const room = new AuditRoom({ store, hub, access: {} as SessionAccess, clock, log, keys, origin: ORIGIN, duties: () => null });
    await room.start();
    cleanups.push(() => {
      room.stop();
      hub.stopListening();
    });
    // A failed check stands (as another gateway's duty holder recorded it): nothing is signed until an admin acknowledges.
    await store.setMeta(FAILED_META, 'entry 3 changed');
    // Each time the duty ran it held every unit back (hub.quiet) to read the failure.
    let drains = 0;
    const quiet = hub.quiet.bind(hub);
    hub.quiet = ((fn: () => Promise<unknown>) => (drains++, quiet(fn))) as typeof hub.quiet;
    const rounds = 2 * CHECKPOINT_EVERY_ENTRIES;
    for (let i = 0; i < rounds; i += 16)
      await Promise.all(
        Array.from({ length: 16 }, (_, j) => hub.commit(() => room.recordUnread({ atMs: clock.now(), event: 'question.asked', identity: 'agent', questionId: `q-${i + j}` }))),
      );
    await room.signNow();
    expect(await store.latestAuditCheckpoint()).toBeFalsy();
    // Two checkpoints' worth of entries and the sign asked for above; not a drain per entry past the first mark.
    expect(drains).toBeLessThanOrEqual(4);
  });
});
