import { describe, expect, it } from 'vitest';
import { verifyExport } from '../../audit/index.ts';
import { admin, databases, gatewayOn, keys, latestSize, open, ORIGIN, type AuditDatabase } from '../../testing/audit-room-gateway.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import type { AuditRoom } from './audit-room.ts';

const HOUR = 3_600_000;

/** Every page of an export from `room`, as files. */
async function exportFiles(room: AuditRoom): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  let page = await room.exportPage(admin, {});
  for (;;) {
    files.set(page.file, (files.get(page.file) ?? '') + page.data);
    if (!page.next) return files;
    page = await room.exportPage(admin, { exportId: page.exportId, ...page.next });
  }
}

/** The sizes of the checkpoints (C2SP notes: the origin line, then the size) in a checkpoints file. */
const signedSizes = (text: string) => [...text.matchAll(new RegExp(`^${ORIGIN}\n(\\d+)$`, 'gm'))].map((m) => Number(m[1]));

/**
 * The duty holder's clock at `dutyMs`, another gateway's at `otherMs`: the duty signs over 4 entries, row 1 is edited,
 * and the other gateway finds it and acknowledges it (entry 4; its restart signs the checkpoint of size 5).
 */
async function acknowledgedBeside(db: AuditDatabase, dutyMs: number, otherMs: number) {
  const duty = await gatewayOn(db, new FakeClock(dutyMs));
  const other = await gatewayOn(db, new FakeClock(otherMs), duty.hub, false);
  await duty.append(4);
  await duty.room.duty();
  await duty.edit(1);
  expect((await other.room.checkpoint(admin, { sign: true })).integrity).toMatchObject({ ok: false });
  expect(await other.room.acknowledge(admin, { note: 'row 1 edited by hand' })).toEqual({ acknowledged: true, entryIndex: 4 });
  return { duty, other };
}

describe.each(databases)('checkpoints since an acknowledgement, on gateways whose clocks disagree (L7) on %s', (_name, makeDatabase) => {
  it('[L7][L5] an acknowledgement made on a gateway whose clock runs an hour ahead: the checkpoints the duty holder signs after it count, and the export proves every entry against the last one', async () => {
    const db = await open(makeDatabase);
    // The duty holder's clock lags the other gateway's by an hour.
    const { duty } = await acknowledgedBeside(db, 1_700_000_000_000, 1_700_000_000_000 + HOUR);

    // Signed by the duty holder after the acknowledgement, by a clock that reads before it.
    await duty.append(3);
    await duty.room.duty();
    expect(await latestSize(db.store)).toBe(8);

    const files = await exportFiles(duty.room);
    expect(files.get('entries.jsonl')!.trim().split('\n').map((l) => (JSON.parse(l) as { index: number }).index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // The checkpoints since the acknowledgement, the last of them the duty holder's: not the one the acknowledgement set aside.
    expect(signedSizes(files.get('checkpoints.txt')!)).toEqual([5, 8]);
    expect(verifyExport(files, keys)).toMatchObject({ exit: 0, summary: { entries: 8, treeSize: 8 } });
  });

  it('[L7][L5] an acknowledgement made on a gateway whose clock lags an hour: the checkpoint signed before it by the other, dated after it, stays set aside', async () => {
    const { duty, other: behind } = await acknowledgedBeside(await open(makeDatabase), 1_700_000_000_000 + HOUR, 1_700_000_000_000);
    await duty.append(2);
    await duty.room.duty();

    const files = await exportFiles(behind.room);
    // Not the checkpoint of size 4, signed over row 1 as it was before the edit.
    expect(signedSizes(files.get('checkpoints.txt')!)).toEqual([5, 7]);
    expect(verifyExport(files, keys)).toMatchObject({ exit: 0, summary: { entries: 7, treeSize: 7 } });
  });
});
