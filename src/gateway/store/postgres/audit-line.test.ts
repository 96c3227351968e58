import { describe, expect, it } from 'vitest';
import { indexedEntry } from '../audit-rows.ts';
import { lineAround } from './audit.ts';

describe('the audit line the database completes (L1 on PostgreSQL)', () => {
  it('[L1][L2] the line split around its index, given any index, is the canonical line of the entry with that index', () => {
    const entries = [
      { atMs: 1, event: 'question.asked' as const, identity: 'agent', questionId: 'q1' },
      { atMs: 2, event: 'grant.made' as const, identity: 'ana', grantId: 'g1', detail: { index: 0, rule: '"index":0', scope: 'session' } },
    ];
    for (const entry of entries) {
      const { head, tail } = lineAround(entry);
      for (const n of [0, 7, 1234567890123]) expect(`${head}${n}${tail}`).toBe(indexedEntry(entry, n).line);
    }
  });
});
