import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../audit/index.ts';
import { databases, open, storedLines } from '../../testing/audit-room-gateway.ts';
import { indexedEntry } from './audit-rows.ts';

const lost = { atMs: 9, event: 'audit.lost' as const, identity: 'admin', detail: { reason: 'gone' } };

describe.each(databases)('the holes an acknowledgement fills (L7) on %s', (_name, makeDatabase) => {
  it('[L7] every missing index is filled, and only the runs asked for come back, with how many runs and indexes there were in all', async () => {
    const db = await open(makeDatabase);
    for (let i = 0; i < 40; i++) await db.store.appendAudit({ atMs: i, event: 'question.asked', identity: 'agent', questionId: `q${i}` });
    // Runs 0-1, then 5, 9, …, 33 (every fourth) and 36-38: ten runs, 2 + 8 + 3 = 13 indexes.
    await db.run(`DELETE FROM audit_entries WHERE idx < 2 OR (idx BETWEEN 5 AND 33 AND idx % 4 = 1) OR idx BETWEEN 36 AND 38`);
    const filled = await db.store.transaction(() => db.store.fillAuditHoles(lost, 3));
    expect(filled).toEqual({ runs: [{ from: 0, to: 1 }, { from: 5, to: 5 }, { from: 9, to: 9 }], runCount: 10, lostCount: 13 });
    const lines = await storedLines(db.store);
    const entries = lines.map((line) => JSON.parse(line) as AuditEntry);
    expect(entries.map((e) => e.index)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    const filledAt = entries.filter((e) => e.event === 'audit.lost').map((e) => e.index);
    expect(filledAt).toEqual([0, 1, 5, 9, 13, 17, 21, 25, 29, 33, 36, 37, 38]);
    // Each placeholder is the canonical line of its entry, byte for byte (an index written as 5.0 would not be).
    expect(filledAt.map((i) => lines[i])).toEqual(filledAt.map((i) => indexedEntry(lost, i).line));
    // Nothing left to fill.
    expect(await db.store.transaction(() => db.store.fillAuditHoles(lost, 3))).toEqual({ runs: [], runCount: 0, lostCount: 0 });
  });
});
