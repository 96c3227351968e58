import { describe, expect, it } from 'vitest';
import { entryLine, verifyExport, type AuditEntry } from '../../audit/index.ts';
import { admin, databases, gatewayOn, keys, latestSize, open, rootOf, rootOfNote, signedGateway, signedRoot, storedLines } from '../../testing/audit-room-gateway.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { CHECKPOINT_EVERY_MS } from './audit-room.ts';

describe.each(databases)('the checkpoint duty reads on from what it read (L2, L7) on %s', (_name, makeDatabase) => {
  it('[L7] automatic checkpoints within 60 s read only the entries new since; the first after 60 s, and an admin\'s sign, read the whole log again', async () => {
    const db = await open(makeDatabase);
    const store = db.store;
    const clock = new FakeClock();
    const gw = await gatewayOn(db, clock);
    await gw.append(200);
    await gw.room.duty();
    expect(await latestSize(store)).toBe(200);

    const before = gw.linesRead();
    await gw.append(10);
    await gw.room.duty();
    await gw.append(7);
    clock.advance(CHECKPOINT_EVERY_MS - 1);
    await gw.room.duty();
    expect(await latestSize(store)).toBe(217);
    // The 17 new lines, each read once: not the 200 before them again with each checkpoint.
    expect(gw.linesRead() - before).toBe(17);

    // 60 s after the re-read at start, the duty's own timer: every stored line is read again.
    const atMinute = gw.linesRead();
    await gw.append(3);
    clock.advance(1);
    await expect.poll(() => latestSize(store), { timeout: 30_000 }).toBe(220);
    expect(gw.linesRead() - atMinute).toBe(220);

    const beforeSign = gw.linesRead();
    expect((await gw.room.checkpoint(admin, { sign: true })).treeSize).toBe(220);
    expect(gw.linesRead() - beforeSign).toBe(220);
  });

  it('[L7] a row edited while the gateway runs: no checkpoint is signed over it; the first automatic checkpoint 60 s on names it and holds the signing', async () => {
    const clock = new FakeClock();
    const { db, gw } = await signedGateway(makeDatabase, 8, clock);
    const original = await storedLines(db.store);
    await gw.edit(1);
    expect((await storedLines(db.store))[1]).not.toBe(original[1]);

    // Within 60 s the checkpoint is signed over the lines as first read: the edited row does not verify against it.
    await gw.append(4);
    await gw.room.duty();
    expect(await latestSize(db.store)).toBe(12);
    const stored = await storedLines(db.store);
    expect(await signedRoot(db.store)).toEqual(rootOf([...original, ...stored.slice(8)]));
    expect(await signedRoot(db.store)).not.toEqual(rootOf(stored));
    expect(await gw.room.state()).toEqual({ ok: true });

    await gw.append(2);
    clock.advance(CHECKPOINT_EVERY_MS);
    // The timer's duty ends by logging the failed check once its group is durable: waited for as such. The stored state
    // is readable earlier (in the open group), so waiting for it left the log and the admins' event to a race.
    await expect.poll(() => gw.logs.join('\n'), { timeout: 30_000 }).toMatch(/does not match its signed checkpoints/);
    expect(await gw.room.state()).toEqual({ ok: false, detail: 'the stored entries no longer match the checkpoint of size 8: an entry below index 8 was changed' });
    const told = (await db.store.eventsAfter(0, 1_000)).filter((e) => e.event === 'audit.integrity');
    expect(told.map((e) => e.payload)).toEqual([{ ok: false, detail: expect.stringMatching(/checkpoint of size 8:/) }]);
    // Held until acknowledged: neither the duty nor an admin signs over the 14 entries.
    await gw.room.duty();
    expect((await gw.room.checkpoint(admin, { sign: true })).checkpoint!.split('\n')[1]).toBe('12');
    expect(await latestSize(db.store)).toBe(12);
  });

  it('[L7] a row edited while the gateway runs is named by the next `audit.checkpoint {sign:true}`, without waiting for the minute', async () => {
    const { gw } = await signedGateway(makeDatabase, 5);
    await gw.edit(3);
    const held = await gw.room.checkpoint(admin, { sign: true });
    expect(held.integrity).toEqual({ ok: false, detail: 'the stored entries no longer match the checkpoint of size 5: an entry below index 5 was changed' });
    expect(held.checkpoint!.split('\n')[1]).toBe('5');
  });

  it('[L7] a line read after the last checkpoint and edited before the next: the next full re-read names it, nothing is signed over it', async () => {
    const { db, gw } = await signedGateway(makeDatabase, 5);
    await gw.append(3);
    // An admin's page load reads the three new lines (audit.checkpoint {} answers the tree's size).
    expect((await gw.room.checkpoint(admin, {})).treeSize).toBe(8);
    await gw.edit(6);
    const held = await gw.room.checkpoint(admin, { sign: true });
    expect(held.integrity).toEqual({ ok: false, detail: 'the stored entries no longer match the 8 read before: an entry below index 8 was changed after it was read' });
    expect(await latestSize(db.store)).toBe(5);
  });

  it('[L7] an export reads the whole log again before it signs its checkpoint', async () => {
    const { db, gw } = await signedGateway(makeDatabase, 5);
    await gw.edit(2);
    await gw.room.exportPage(admin, {});
    expect(await gw.room.state()).toEqual({ ok: false, detail: expect.stringMatching(/checkpoint of size 5:/) });
    expect(await latestSize(db.store)).toBe(5);
  });

  it('[L7] start still finds a row edited while the gateway was stopped', async () => {
    const { db, gw: first } = await signedGateway(makeDatabase, 6);
    first.room.stop();
    await first.edit(0);
    const second = await gatewayOn(db, new FakeClock());
    expect(await second.room.state()).toEqual({ ok: false, detail: 'the stored entries no longer match the checkpoint of size 6: an entry below index 6 was changed' });
  });

  it('[L7] an acknowledgement made on another gateway: this one reads the log afresh and signs on, with no failed check of its own', async () => {
    const db = await open(makeDatabase);
    const clock = new FakeClock();
    const duty = await gatewayOn(db, clock);
    const other = await gatewayOn(db, clock, duty.hub);
    await duty.append(4);
    await duty.room.duty();
    await duty.edit(1);
    expect((await other.room.checkpoint(admin, { sign: true })).integrity).toMatchObject({ ok: false });
    expect(await other.room.acknowledge(admin, { note: 'row 1 restored by hand' })).toEqual({ acknowledged: true, entryIndex: 4 });
    await duty.append(2);
    await duty.room.duty();
    expect(await duty.room.state()).toEqual({ ok: true });
    expect(await latestSize(db.store)).toBe(7);
    expect(await signedRoot(db.store)).toEqual(rootOf(await storedLines(db.store)));
  });

  it('[L7] a failed check the duty holder found is the same on every gateway, and an acknowledgement on another gateway lets the duty holder sign again', async () => {
    const db = await open(makeDatabase);
    const clock = new FakeClock();
    const duty = await gatewayOn(db, clock);
    const other = await gatewayOn(db, clock, duty.hub, false);
    await duty.append(4);
    await duty.room.duty();
    await duty.edit(1);
    await duty.append(2);
    // The duty's minute: its full re-read finds the edit and holds the signing.
    clock.advance(CHECKPOINT_EVERY_MS);
    await duty.room.duty();
    const failedCheck = { ok: false, detail: 'the stored entries no longer match the checkpoint of size 4: an entry below index 4 was changed' };
    // Every gateway's admins read the same state, though only the duty holder read the log.
    expect((await duty.room.checkpoint(admin, {})).integrity).toEqual(failedCheck);
    expect((await other.room.checkpoint(admin, {})).integrity).toEqual(failedCheck);

    // The acknowledgement lands on the other gateway: it has the failure to acknowledge.
    expect(await other.room.acknowledge(admin, { note: 'row 1 restored by hand' })).toEqual({ acknowledged: true, entryIndex: 6 });
    expect(await other.room.acknowledge(admin, {})).toEqual({ acknowledged: false });
    expect(await duty.room.acknowledge(admin, {})).toEqual({ acknowledged: false });
    expect((await duty.room.checkpoint(admin, {})).integrity).toEqual({ ok: true });
    // The duty holder signs again, over the log as it is.
    await duty.append(3);
    await duty.room.duty();
    expect(await latestSize(db.store)).toBe(10);
    expect(await signedRoot(db.store)).toEqual(rootOf(await storedLines(db.store)));
  });

  it('[L7][L5] after an acknowledgement of deleted rows, an answer is kept at the index of one that was lost with them', async () => {
    const { db, gw } = await signedGateway(makeDatabase, 3);
    const answered = (questionId: string, answers: string) =>
      gw.hub.commit(() => gw.room.record({ atMs: 5_000, event: 'question.answered', identity: 'admin', questionId }, { questionId, salt: Buffer.alloc(16, 1), answers }));
    expect((await answered('q-lost', 'no')).index).toBe(3);
    expect((await answered('q-lost-too', 'no')).index).toBe(4);
    await gw.room.checkpoint(admin, { sign: true });
    await gw.removeFrom(3);
    expect((await gw.room.checkpoint(admin, { sign: true })).integrity).toMatchObject({ ok: false });
    // The acknowledgement is entry 3, the next answer entry 4: where the answer of a lost entry was kept.
    expect(await gw.room.acknowledge(admin, {})).toEqual({ acknowledged: true, entryIndex: 3 });
    expect((await answered('q-new', 'yes')).index).toBe(4);
    expect((await db.store.auditAnswers(3, 6)).map((a) => [a.entryIndex, a.questionId, a.answers])).toEqual([
      [3, 'q-lost', 'no'],
      [4, 'q-new', 'yes'],
    ]);
  });

  it('[L7] an acknowledgement that leaves the log at the size of a checkpoint signed before: the checkpoint it signs is kept and is the one `audit.checkpoint` shows', async () => {
    const { db, gw } = await signedGateway(makeDatabase, 5);
    const before = (await gw.room.checkpoint(admin, {})).checkpoint;
    await gw.removeFrom(4);
    expect((await gw.room.checkpoint(admin, { sign: true })).integrity).toMatchObject({ ok: false });
    // The acknowledgement is entry 4: the log is back at 5 entries, not those the checkpoint before signed.
    expect(await gw.room.acknowledge(admin, {})).toEqual({ acknowledged: true, entryIndex: 4 });
    const after = await gw.room.checkpoint(admin, {});
    expect(after).toMatchObject({ treeSize: 5, integrity: { ok: true } });
    expect(after.checkpoint).not.toBe(before);
    expect(rootOfNote(after.checkpoint!)).toEqual(rootOf(await storedLines(db.store)));
    expect(await signedRoot(db.store)).toEqual(rootOf(await storedLines(db.store)));
  });
  it('[L5][L6][L7] the last rows deleted while the gateway runs, unacknowledged: the export signs nothing and verifies as incomplete at the first entry missing', async () => {
    const { db, gw } = await signedGateway(makeDatabase, 5);
    await gw.append(4);
    await gw.room.duty();
    await gw.removeFrom(7);
    const files = new Map<string, string>();
    let page = await gw.room.exportPage(admin, {});
    for (;;) {
      files.set(page.file, (files.get(page.file) ?? '') + page.data);
      if (!page.next) break;
      page = await gw.room.exportPage(admin, { exportId: page.exportId, ...page.next });
    }
    expect(page.failedCheck).toBe('the checkpoint of size 9 covers more entries than the log holds (7)');
    expect(await latestSize(db.store)).toBe(9);
    expect(verifyExport(files, keys)).toMatchObject({ exit: 2, problem: { file: 'entries.jsonl', line: 8, entryIndex: 7 } });
  });

  it('[L7] rows in the middle deleted and acknowledged: each missing index is an `audit.lost` entry written with the acknowledgement, which lists them, and checkpoints are signed again over the whole log', async () => {
    const { db, gw } = await signedGateway(makeDatabase, 8);
    await gw.hub.quiet(() => db.run('DELETE FROM audit_entries WHERE idx IN (0, 2, 4, 5)'));
    expect((await gw.room.checkpoint(admin, { sign: true })).integrity).toEqual({ ok: false, detail: 'entry 0 is missing from the log' });
    expect(await gw.room.acknowledge(admin, { note: 'rows gone' })).toEqual({ acknowledged: true, entryIndex: 8, lost: '0,2,4-5', lostCount: 4 });
    const lines = await storedLines(db.store);
    const entries = lines.map((line) => JSON.parse(line) as AuditEntry);
    // Each placeholder stored as its canonical line, as a verifier hashes it from an export.
    expect(entries.map(entryLine)).toEqual(lines);
    expect(entries.map((e) => e.event)).toEqual(['audit.lost', 'question.asked', 'audit.lost', 'question.asked', 'audit.lost', 'audit.lost', 'question.asked', 'question.asked', 'audit.acknowledged']);
    expect(entries[4]).toMatchObject({ index: 4, identity: 'admin', detail: { reason: expect.stringContaining('missing') } });
    expect(entries[8].detail).toEqual({ problem: 'entry 0 is missing from the log', lost: '0,2,4-5', lostCount: 4, note: 'rows gone' });
    expect(await gw.room.state()).toEqual({ ok: true });
    await gw.append(2);
    const signed = await gw.room.checkpoint(admin, { sign: true });
    expect(signed).toMatchObject({ treeSize: 11, integrity: { ok: true } });
    expect(rootOfNote(signed.checkpoint!)).toEqual(rootOf(await storedLines(db.store)));
  });
});

describe('an export over a time range (L5, L6)', () => {
  it('[L5][L6] entries timed out of index order (commits that finish in another order than they started): --since exports one run of entries, which verifies', async () => {
    const db = await open(databases[0][1]);
    const gw = await gatewayOn(db, new FakeClock());
    // Entry 2 was timed before entry 1: --since 2500 starts at entry 1 and keeps entry 2, rather than leave a gap.
    await gw.hub.commit(async () => {
      for (const atMs of [1_000, 3_000, 2_000, 4_000]) await gw.room.record({ atMs, event: 'question.asked', identity: 'agent', questionId: `q-${atMs}` });
    });
    const files = new Map<string, string>();
    let page = await gw.room.exportPage(admin, { since: 2_500 });
    for (;;) {
      files.set(page.file, (files.get(page.file) ?? '') + page.data);
      if (!page.next) break;
      page = await gw.room.exportPage(admin, { exportId: page.exportId, ...page.next });
    }
    const exported = files.get('entries.jsonl')!.trim().split('\n').map((l) => (JSON.parse(l) as AuditEntry).atMs);
    expect(exported).toEqual([3_000, 2_000, 4_000]);
    expect(verifyExport(files, keys)).toMatchObject({ exit: 0, summary: { entries: 3, first: 1, last: 3 } });
  });
});
