import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { newSeed } from '../../audit/ed25519.ts';
import { leafHash, MerkleTree, parseCheckpoint } from '../../audit/index.ts';
import { signerFromSeed } from '../../audit/note.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { EventHub } from '../hub/hub.ts';
import { Turn } from '../hub/turn.ts';
import { memoryLogger } from '../infra/logger.ts';
import type { SessionAccess } from '../sessions/session-access.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import { AuditRoom, CHECKPOINT_EVERY_MS } from './audit-room.ts';

const ORIGIN = 'askdock.local/audit-rollback';
const keys = [{ ...signerFromSeed(ORIGIN, newSeed()), validFrom: '2026-12-01T00:00:00.000Z' }];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

it('[L2][L7] entries read inside a commit group that is then rolled back are not signed over, and no false failure follows', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-audit-rollback-'));
  const real = openSqliteStore(join(dir, 'askdock.db'));
  cleanups.push(async () => {
    await real.close();
    rmSync(dir, { recursive: true, force: true });
  });
  // A group whose COMMIT fails (as after SQLITE_FULL): everything of that turn is undone.
  let failCommit = false;
  const store = new Proxy(real, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (name === 'commitGroup')
        return async () => {
          if (!failCommit) return target.commitGroup();
          failCommit = false;
          throw new Error('disk full');
        };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as typeof real;
  const clock = new FakeClock();
  const { log } = memoryLogger();
  let room: AuditRoom | undefined;
  // As the gateway's core wires it (core.ts): a rolled-back group makes the audit log forget what it read.
  const hub = new EventHub({ store, clock, view: (_v, _e, frame) => frame(), checkPayloads: false, log, turn: new Turn(), onRollback: () => room?.log.forgetRead() });
  await hub.start();
  room = new AuditRoom({ store, hub, access: {} as SessionAccess, clock, log, keys, origin: ORIGIN, duties: () => null });
  await room.start();
  cleanups.push(() => {
    room!.stop();
    hub.stopListening();
  });
  let n = 0;
  // Entries recorded as the gateway's units record them, then the turn's group settled (committed or rolled back).
  const append = async (count: number) => {
    await hub
      .commit(async () => {
        for (let i = 0; i < count; i++) await room!.record({ atMs: clock.now(), event: 'question.asked', identity: 'agent', questionId: `q${n++}` });
      })
      .catch(() => undefined);
    await hub.quiet(() => undefined);
  };
  await append(10);
  await room.duty();
  failCommit = true;
  // Enough entries for a checkpoint of their own, read while their group is open; then the group fails.
  await append(256);
  expect(await real.auditSize()).toBe(10);
  await append(5);
  await room.duty();
  const stored = (await real.auditLines(0, 1000)).map((r) => r.line);
  const signed = (await real.latestAuditCheckpoint())!;
  expect(signed.size).toBe(stored.length);
  expect(parseCheckpoint(signed.note.split('\n\n')[0] + '\n').root.equals(new MerkleTree(stored.map(leafHash)).root())).toBe(true);
  expect(await room.state()).toMatchObject({ ok: true });
  clock.advance(CHECKPOINT_EVERY_MS);
  await append(1);
  await room.duty();
  expect(await room.state()).toMatchObject({ ok: true });
});
