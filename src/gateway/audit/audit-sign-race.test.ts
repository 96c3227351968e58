import { describe, expect, it } from 'vitest';
import { admin, databases, EDIT, gatewayOn, latestSize, open, type AuditDatabase } from '../../testing/audit-room-gateway.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import type { Store } from '../store/types.ts';
import { FAILED_META } from './audit-meta.ts';

/**
 * The database as the duty holder reads it, with another gateway beside it: `race` runs right after the duty holder's
 * next read of the failed check, before anything else it does (the read answers what it read, as in a real race).
 */
function racing(db: AuditDatabase): { db: AuditDatabase; race: (between: () => Promise<void>) => void } {
  let pending: (() => Promise<void>) | null = null;
  const store = new Proxy(db.store, {
    get(target, name) {
      if (name === 'getMeta')
        return async (key: string) => {
          const value = await target.getMeta(key);
          const between = key === FAILED_META ? pending : null;
          if (between) {
            pending = null;
            await between();
          }
          return value;
        };
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Store;
  return { db: { ...db, store }, race: (between) => void (pending = between) };
}

describe.each(databases)('the duty holder and a failed check another gateway records meanwhile (L7) on %s', (_name, makeDatabase) => {
  it('[L7] a failure recorded by another gateway after the duty holder read the flag, before it stored its checkpoint: no checkpoint is stored over it', async () => {
    const db = await open(makeDatabase);
    const clock = new FakeClock();
    const seam = racing(db);
    const duty = await gatewayOn(seam.db, clock);
    // Another gateway: a hub of its own on the same database.
    const other = await gatewayOn(db, clock, undefined, false);
    await duty.append(4);
    await duty.room.duty();
    await duty.append(2);
    await duty.hub.quiet(() => db.run(EDIT + 1));

    // Between the duty holder's read of the flag and the rest of its signing, the other gateway finds the edit.
    let found: unknown;
    seam.race(async () => {
      found = (await other.room.checkpoint(admin, { sign: true })).integrity;
    });
    await duty.room.duty();
    expect(found).toMatchObject({ ok: false, detail: expect.stringMatching(/checkpoint of size 4:/) });
    // The duty holder read the lines before the edit (within its minute): a checkpoint of 6 would cover the changed row.
    expect(await latestSize(db.store)).toBe(4);
    expect(await duty.room.state()).toMatchObject({ ok: false });
  });
});

describe.each(databases)('a checkpoint of the size read, signed by another gateway over other rows (L7) on %s', (_name, makeDatabase) => {
  it('[L7] the duty holder read 6 entries, one was edited, the other gateway signed 6 over the edit: the duty holder does not take that checkpoint as its own, and the failed check waits for an admin', async () => {
    const db = await open(makeDatabase);
    const clock = new FakeClock();
    const duty = await gatewayOn(db, clock);
    const other = await gatewayOn(db, clock, undefined, false);
    await duty.append(4);
    await duty.room.duty();
    await duty.append(2);
    // The duty holder reads the new entries (an admin's look at the log), then row 5 is edited in the database.
    expect((await duty.room.checkpoint(admin, {})).treeSize).toBe(6);
    await duty.edit(5);
    // The other gateway reads the rows only now: the edit is past the checkpoint of 4, so it signs 6 over it.
    expect(await other.room.checkpoint(admin, { sign: true })).toMatchObject({ treeSize: 6, integrity: { ok: true } });
    expect(await latestSize(db.store)).toBe(6);

    await duty.room.duty();
    expect(await duty.room.state()).toMatchObject({ ok: false, detail: expect.stringMatching(/below index 6 was changed/) });
    expect(duty.logs.join('\n')).toMatch(/does not match its signed checkpoints/);
  });
});
