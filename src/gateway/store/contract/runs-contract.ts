import { beforeEach, describe, expect, it } from 'vitest';
import { run } from './contract-fixtures.ts';
import type { RunRow, Store } from '../types.ts';

/** C4: runs and the active ones; part of the store contract that store.contract.test.ts runs on every store. */
export function runsContract(current: () => Store): void {
  describe('runs', () => {
    let store: Store;
    beforeEach(() => { store = current(); });

    it('[C4] reads runs back, without absent optional fields, and lists the active ones by session', async () => {
      await store.insertRun(run('r1', { startedAtMs: 1_000 }));
      await store.insertRun(run('r2', { startedAtMs: 1_100, recovery: true, triggerMessageId: 'm1' }));
      await store.insertRun(run('r3', { startedAtMs: 900, sessionKey: null }));
      await store.insertRun(run('r4', { startedAtMs: 1_200, sessionKey: 's2' }));
      expect((await store.getRun('r1'))).toStrictEqual(run('r1', { startedAtMs: 1_000 }));
      expect(Object.keys((await store.getRun('r1')) ?? {})).not.toContain('endedAtMs');
      expect((await store.getRun('r2'))?.recovery).toBe(true);
      expect((await store.getRun('r3'))?.sessionKey).toBeNull();
      expect((await store.getRun('nope'))).toBeUndefined();

      const ids = (list: RunRow[]) => list.map((r) => r.runId);
      expect(ids((await store.activeRuns()))).toEqual(['r3', 'r1', 'r2', 'r4']);
      expect(ids((await store.activeRuns('s1')))).toEqual(['r1', 'r2']);
      expect(ids((await store.activeRuns(null)))).toEqual(['r3']);
      expect(ids((await store.activeRuns('nope')))).toEqual([]);

      const ended = run('r2', { startedAtMs: 1_100, recovery: true, triggerMessageId: 'm1', endedAtMs: 2_000, stopReason: 'end_turn', phase: 'final' });
      await store.updateRun(ended);
      expect((await store.getRun('r2'))).toStrictEqual(ended);
      expect(ids((await store.activeRuns('s1')))).toEqual(['r1']);
    });

    it('[C4][R3] keeps the message a run streams into until an update leaves it out', async () => {
      await store.insertRun(run('r1', { streamingMessageId: 'm-stream' }));
      expect((await store.getRun('r1'))?.streamingMessageId).toBe('m-stream');
      expect((await store.activeRuns('s1'))[0]?.streamingMessageId).toBe('m-stream');
      await store.updateRun(run('r1', { phase: 'final' }));
      expect(Object.keys((await store.getRun('r1')) ?? {})).not.toContain('streamingMessageId');
    });

    it('[C4] refuses a duplicate run and an update of an unknown run', async () => {
      await store.insertRun(run('r1'));
      await expect(async () => await store.insertRun(run('r1', { agentId: 'other' }))).rejects.toThrow();
      expect((await store.getRun('r1'))?.agentId).toBe('agent');
      await expect(async () => await store.updateRun(run('nope'))).rejects.toThrow(/run "nope"/);
    });
  });
}
