import { beforeEach, describe, expect, it } from 'vitest';
import { question, event } from './contract-fixtures.ts';
import type { Store, StoredEvent } from '../types.ts';

/** R1/R2: the event log, its seqs and pruning; part of the store contract that store.contract.test.ts runs on every store. */
export function eventsContract(current: () => Store): void {
  describe('events', () => {
    let store: Store;
    beforeEach(() => { store = current(); });

    it('[R1] starts empty', async () => {
      expect((await store.latestSeq())).toBe(0);
      expect((await store.oldestEventSeq())).toBe(0);
      expect((await store.eventsAfter(0, 10))).toEqual([]);
    });

    it('[R1] numbers events 1, 2, 3... and reads them back oldest first', async () => {
      const audience = { sessionKey: null, question: { askedBy: 'agent', privileged: true }, onlyIdentity: 'op' };
      const seqs = [
        (await store.appendEvent(event(100))),
        (await store.appendEvent(event(200, { event: 'question.requested', payload: { question: question('q1') }, audience }))),
        (await store.appendEvent(event(300, { audience: { sessionKey: 's1', onlyIdentity: undefined } }))),
      ];
      expect(seqs).toEqual([1, 2, 3]);
      expect((await store.latestSeq())).toBe(3);
      expect((await store.oldestEventSeq())).toBe(1);
      expect((await store.eventsAfter(0, 10))).toStrictEqual([
        { seq: 1, ...event(100) },
        { seq: 2, ...event(200, { event: 'question.requested', payload: { question: question('q1') }, audience }) },
        { seq: 3, ...event(300) },
      ]);
    });

    it('[R2] replays after a cursor, at most limit events', async () => {
      for (let i = 1; i <= 5; i++) (await store.appendEvent(event(i * 100)));
      const seqs = (list: StoredEvent[]) => list.map((e) => e.seq);
      expect(seqs((await store.eventsAfter(0, 2)))).toEqual([1, 2]);
      expect(seqs((await store.eventsAfter(2, 10)))).toEqual([3, 4, 5]);
      expect(seqs((await store.eventsAfter(4, 1)))).toEqual([5]);
      expect((await store.eventsAfter(5, 10))).toEqual([]);
      expect((await store.eventsAfter(0, 0))).toEqual([]);
    });

    it('[R2] prunes events older than beforeMs but keeps at least the newest N', async () => {
      for (let i = 1; i <= 10; i++) (await store.appendEvent(event(i * 1_000)));
      expect((await store.pruneEvents(5_500, 3))).toBe(5);
      expect((await store.oldestEventSeq())).toBe(6);
      expect((await store.pruneEvents(100_000, 3))).toBe(2);
      expect((await store.eventsAfter(0, 100)).map((e) => e.seq)).toEqual([8, 9, 10]);
      expect((await store.pruneEvents(100_000, 3))).toBe(0);
      expect((await store.pruneEvents(100_000, 50))).toBe(0);
      expect((await store.pruneEvents(0, 0))).toBe(0);
      expect((await store.oldestEventSeq())).toBe(8);
      expect((await store.latestSeq())).toBe(10);
    });

    it('[R2] prunes only a prefix, so kept events have no gaps when clocks step back', async () => {
      for (const atMs of [1_000, 5_000, 2_000, 6_000]) (await store.appendEvent(event(atMs)));
      expect((await store.pruneEvents(3_000, 0))).toBe(1);
      expect((await store.eventsAfter(0, 10)).map((e) => e.seq)).toEqual([2, 3, 4]);
    });

    it('[R1] never reuses a seq after every event was pruned', async () => {
      for (let i = 1; i <= 3; i++) (await store.appendEvent(event(i)));
      expect((await store.pruneEvents(Number.MAX_SAFE_INTEGER, 0))).toBe(3);
      expect((await store.eventsAfter(0, 10))).toEqual([]);
      expect((await store.latestSeq())).toBe(3);
      // Nothing kept: the oldest resumable cursor is the latest, so an older one refetches (R2).
      expect((await store.oldestEventSeq())).toBe(4);
      expect((await store.appendEvent(event(4)))).toBe(4);
      expect((await store.oldestEventSeq())).toBe(4);
    });
  });
}
