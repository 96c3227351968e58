import { describe, expect, it, vi } from 'vitest';
import { builtEntryLine } from '../../../audit/index.ts';
import { indexedEntry } from '../audit-rows.ts';
import { lineAround } from '../audit-rows.ts';
import { auditMethods } from './audit.ts';
import type { QueryResult } from './pool.ts';

vi.mock('../../../audit/index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../audit/index.ts')>();
  return { ...real, builtEntryLine: vi.fn(real.builtEntryLine) };
});

const entries = [
  { atMs: 1, event: 'question.asked' as const, identity: 'agent', questionId: 'q1' },
  { atMs: 2, event: 'grant.made' as const, identity: 'ana', grantId: 'g1', detail: { index: 0, rule: '"index":0', scope: 'session' } },
];

describe('the audit line the database completes (L1 on PostgreSQL)', () => {
  it('[L1][L2] the line split around its index, given any index, is the canonical line of the entry with that index', () => {
    for (const entry of entries) {
      const { head, tail } = lineAround(entry);
      for (const n of [0, 7, 1234567890123]) expect(`${head}${n}${tail}`).toBe(indexedEntry(entry, n).line);
    }
  });

  it('[L1] an append builds the entry\'s canonical line once: the database writes the index into it, and the entry comes back with that index', async () => {
    const sent: { sql: string; params?: unknown[] }[] = [];
    const q = async (sql: string, params?: unknown[]): Promise<QueryResult> => {
      sent.push({ sql, params });
      return { rows: [{ idx: 7 }], rowCount: 1, command: 'SELECT' };
    };
    const audit = auditMethods(q);
    for (const unread of [false, true]) {
      for (const entry of entries) {
        const expected = indexedEntry(entry, 7).entry;
        vi.mocked(builtEntryLine).mockClear();
        const appended = unread ? await audit.appendAuditUnread!(entry) : await audit.appendAudit!(entry);
        expect(vi.mocked(builtEntryLine)).toHaveBeenCalledTimes(1);
        if (!unread) expect(appended).toEqual(expected);
      }
    }
    // Every append takes the log's lock in its own unit's round trip: the lock and the insert, four appends.
    expect(sent).toHaveLength(8);
    const { head, tail } = lineAround(entries[0]);
    expect(sent[1].params).toEqual([head, tail]);
  });
});

describe('the holes an acknowledgement fills (L7 on PostgreSQL)', () => {
  it('[L7] every run of missing indexes is filled by one statement, however many runs the log has, and only the runs listed come back: the lock every gateway waits for is held for a fixed number of round trips', async () => {
    const sent: { sql: string; params?: unknown[] }[] = [];
    // Every other entry of 0..4000 deleted: 2000 runs of one index each; the database answers the first 100 with the counts.
    const first = Array.from({ length: 100 }, (_, k) => ({ a: String(2 * k + 1), b: String(2 * k + 1), runs: '2000', lost: '2000' }));
    const q = async (sql: string, params?: unknown[]): Promise<QueryResult> => {
      sent.push({ sql, params });
      return { rows: sql.includes('LEAD(idx)') ? first : [], rowCount: 0, command: 'SELECT' };
    };
    const filled = await auditMethods(q).fillAuditHoles!({ atMs: 5, event: 'audit.lost', identity: 'admin', detail: { reason: 'gone' } }, 100);
    expect(filled).toMatchObject({ runCount: 2000, lostCount: 2000 });
    expect(filled.runs).toHaveLength(100);
    expect(filled.runs[1]).toEqual({ from: 3, to: 3 });
    // The lock, then one statement that finds, fills and counts the runs: nothing sent grows with them.
    expect(sent).toHaveLength(2);
    expect(sent[1].sql).toMatch(/INSERT INTO audit_entries/);
    expect(sent[1].params).toHaveLength(3);
    expect(sent[1].params![2]).toBe(100);
  });
});
