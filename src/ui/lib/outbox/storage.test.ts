import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { OutboxRow } from './machine.ts';
import { createMemoryStorage, createOutboxStorage, type OutboxStorage } from './storage.ts';

let dbCounter = 0;
const freshName = () => `outbox-test-${++dbCounter}`;

function row(id: string, extra: Partial<OutboxRow> = {}): OutboxRow {
  return {
    id,
    idempotencyKey: `outbox-${id}-key`,
    sessionKey: 's1',
    questionId: `q-${id}`,
    text: '> Lunch\nSushi',
    state: 'queued',
    createdAtMs: 1,
    updatedAtMs: 1,
    attempts: 0,
    ...extra,
  };
}

const backends: Array<[string, () => OutboxStorage]> = [
  ['indexeddb', () => createOutboxStorage({ dbName: freshName() })],
  ['memory', () => createMemoryStorage()],
];

describe.each(backends)('outbox storage: %s', (kind, make) => {
  it('[U10] puts, gets, lists and removes rows', async () => {
    const s = make();
    expect(s.kind).toBe(kind);
    await s.put(row('a'));
    await s.put(row('b', { state: 'sent', messageId: 'm1' }));
    expect(await s.get('a')).toEqual(row('a'));
    expect((await s.all()).map((r) => r.id).sort()).toEqual(['a', 'b']);
    await s.remove('a');
    expect(await s.get('a')).toBeUndefined();
    s.close();
  });

  it('transact reads and writes in one step and hands back its result', async () => {
    const s = make();
    await s.put(row('a'));
    const result = await s.transact((rows) => ({
      put: [{ ...rows.get('a')!, state: 'sending' as const }, row('c')],
      remove: ['missing'],
      result: rows.size,
    }));
    expect(result).toBe(1);
    expect((await s.get('a'))!.state).toBe('sending');
    expect(await s.get('c')).toBeDefined();
  });

  it('transact writes nothing when the change throws', async () => {
    const s = make();
    await s.put(row('a'));
    await expect(
      s.transact(() => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await s.get('a')).toEqual(row('a'));
  });

  it('skips stored rows that no longer read as rows', async () => {
    const s = make();
    await s.put(row('a'));
    await s.put({ id: 'junk' } as unknown as OutboxRow);
    expect((await s.all()).map((r) => r.id)).toEqual(['a']);
    expect(await s.get('junk')).toBeUndefined();
  });
});

describe('outbox storage in the browser', () => {
  it('[U10] rows survive closing and opening the database again (a reload)', async () => {
    const name = freshName();
    const first = createOutboxStorage({ dbName: name });
    await first.put(row('a', { state: 'unconfirmed', attempts: 2 }));
    first.close();
    const second = createOutboxStorage({ dbName: name });
    expect(await second.get('a')).toMatchObject({ state: 'unconfirmed', attempts: 2, idempotencyKey: 'outbox-a-key' });
  });

  it('[U10] falls back to memory when IndexedDB is missing', async () => {
    const s = createOutboxStorage({ indexedDB: null });
    expect(s.kind).toBe('memory');
    await s.put(row('a'));
    expect(await s.get('a')).toBeDefined();
  });

  it('[U10] falls back to memory when IndexedDB refuses to open', async () => {
    const broken = {
      open() {
        const req = { onerror: null as null | (() => void), error: new Error('denied') } as unknown as IDBOpenDBRequest;
        setTimeout(() => (req as unknown as { onerror: () => void }).onerror(), 0);
        return req;
      },
    } as unknown as IDBFactory;
    const s = createOutboxStorage({ indexedDB: broken, dbName: freshName() });
    await s.put(row('a'));
    expect(s.kind).toBe('memory');
    expect((await s.all()).map((r) => r.id)).toEqual(['a']);
  });

  it('[U11] transactions of two connections (two tabs) never interleave between read and write', async () => {
    const factory = new IDBFactory();
    const name = freshName();
    const tabA = createOutboxStorage({ indexedDB: factory, dbName: name });
    const tabB = createOutboxStorage({ indexedDB: factory, dbName: name });
    await tabA.put(row('a'));
    // Both try to claim the row at once; only the first transaction can see it unclaimed.
    const claim = (s: OutboxStorage, tab: string) =>
      s.transact((rows) => {
        const r = rows.get('a')!;
        if (r.sendingBy) return { result: false };
        return { put: [{ ...r, sendingBy: tab }], result: true };
      });
    const results = await Promise.all([claim(tabA, 'A'), claim(tabB, 'B'), claim(tabA, 'A2'), claim(tabB, 'B2')]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
