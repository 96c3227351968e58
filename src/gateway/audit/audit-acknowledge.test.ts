import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../audit/index.ts';
import { admin, databases, open, rootOf, rootOfNote, signedGateway, storedLines } from '../../testing/audit-room-gateway.ts';
import { ACK_META, newAcknowledgement, readAcknowledgement, sameAcknowledgement, storeCheckpoint } from './audit-meta.ts';
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

describe.each(databases)('two acknowledgements told apart (L7) on %s', (_name, makeDatabase) => {
  it('[L7] the first acknowledgement\'s entry and the checkpoints since deleted, a second made at its index over the same checkpoints: a checkpoint signed under the first is not stored', async () => {
    const { db, gw } = await signedGateway(makeDatabase, 4);
    await gw.edit(1);
    expect((await gw.room.checkpoint(admin, { sign: true })).integrity).toMatchObject({ ok: false });
    expect(await gw.room.acknowledge(admin, {})).toMatchObject({ acknowledged: true, entryIndex: 4 });
    // What a signer that read the first acknowledgement signs under.
    const first = await readAcknowledgement(db.store);

    // The acknowledgement's entry deleted with the log's tail, the checkpoints since with it, and a hole below.
    await gw.hub.quiet(async () => {
      await db.run(`DELETE FROM audit_entries WHERE idx >= 4 OR idx = 2`);
      await db.run(`DELETE FROM audit_checkpoints WHERE serial > ${first.afterSerial}`);
    });
    expect((await gw.room.checkpoint(admin, { sign: true })).integrity).toMatchObject({ ok: false, detail: 'entry 2 is missing from the log' });
    expect(await gw.room.acknowledge(admin, {})).toMatchObject({ acknowledged: true, entryIndex: 4, lost: '2' });

    const second = await readAcknowledgement(db.store);
    expect({ entry: second.entry, afterSerial: second.afterSerial }).toEqual({ entry: first.entry, afterSerial: first.afterSerial });
    expect(sameAcknowledgement(first, second)).toBe(false);
    // A checkpoint signed over the log as the first acknowledgement left it is overtaken by the second.
    const signedUnderFirst = { size: 5, note: 'signed under the first acknowledgement', signedAtMs: 1 };
    expect(await storeCheckpoint(db.store, signedUnderFirst, first)).toBe('overtaken');
    expect((await db.store.auditCheckpoints()).map((c) => c.note)).not.toContain(signedUnderFirst.note);
  });

  it('[L7] an acknowledgement kept before it had a nonce is still read, and is not the same as one made since', async () => {
    const db = await open(makeDatabase);
    await db.store.setMeta(ACK_META, JSON.stringify({ entry: 3, afterSerial: 2 }));
    const old = await readAcknowledgement(db.store);
    expect(old).toMatchObject({ entry: 3, afterSerial: 2 });
    expect(sameAcknowledgement(old, await readAcknowledgement(db.store))).toBe(true);
    expect(sameAcknowledgement(old, newAcknowledgement(3, 2))).toBe(false);
    expect(sameAcknowledgement(newAcknowledgement(3, 2), newAcknowledgement(3, 2))).toBe(false);
  });
});
