import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../audit/index.ts';
import { admin, databases, rootOf, rootOfNote, signedGateway, storedLines } from '../../testing/audit-room-gateway.ts';
import { LOST_RUNS_LISTED } from './lost-runs.ts';

describe.each(databases)('the acknowledgement of a failed check (L7) on %s', (_name, makeDatabase) => {
  it('[L7] thousands of rows deleted in many holes: every index is an `audit.lost` entry, but the answer and the acknowledgement list the first runs only, with the counts', async () => {
    const { db, gw } = await signedGateway(makeDatabase, 1_300);
    // One hole of 900 rows, then 150 holes of one row each (every other row): 151 runs, 1,050 indexes.
    await gw.hub.quiet(() => db.run('DELETE FROM audit_entries WHERE (idx BETWEEN 1 AND 900) OR (idx BETWEEN 902 AND 1200 AND idx % 2 = 0)'));
    expect((await gw.room.checkpoint(admin, { sign: true })).integrity).toMatchObject({ ok: false });

    const acked = await gw.room.acknowledge(admin, {});
    const listed = ['1-900', ...Array.from({ length: LOST_RUNS_LISTED - 1 }, (_, i) => String(902 + 2 * i))].join(',');
    expect(acked).toEqual({ acknowledged: true, entryIndex: 1_300, lost: listed, lostCount: 1_050, lostRuns: 151 });

    const entries = (await storedLines(db.store)).map((line) => JSON.parse(line) as AuditEntry);
    expect(entries.filter((e) => e.event === 'audit.lost').map((e) => e.index)).toEqual([
      ...Array.from({ length: 900 }, (_, i) => 1 + i),
      ...Array.from({ length: 150 }, (_, i) => 902 + 2 * i),
    ]);
    expect(entries[1_300].detail).toMatchObject({ lost: listed, lostCount: 1_050, lostRuns: 151 });
    const signed = await gw.room.checkpoint(admin, { sign: true });
    expect(signed).toMatchObject({ treeSize: 1_301, integrity: { ok: true } });
    expect(rootOfNote(signed.checkpoint!)).toEqual(rootOf(await storedLines(db.store)));
  });
});
