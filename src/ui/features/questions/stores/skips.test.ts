// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { resetStores } from '../../../../testing/ui-questions.tsx';
import { readSkips, skipActions, SKIPS_STORAGE_KEY, undoOpen, UNDO_WINDOW_MS, useSkipsStore } from './skips.ts';

beforeEach(resetStores);

describe('async skips store', () => {
  it('[U8] a skip is a local mark, persisted; Undo removes it', () => {
    skipActions().asyncSkipped('q1', 1_000);
    expect(useSkipsStore.getState().skipped).toEqual({ q1: { atMs: 1_000 } });
    const stored = JSON.parse(localStorage.getItem(SKIPS_STORAGE_KEY)!);
    expect(stored).toMatchObject({ version: 1, state: { skipped: { q1: { atMs: 1_000 } } } });
    expect(stored.state).not.toHaveProperty('actions');
    skipActions().skipUndone('q1');
    expect(useSkipsStore.getState().skipped).toEqual({});
    const before = useSkipsStore.getState();
    skipActions().skipUndone('never-skipped');
    expect(useSkipsStore.getState()).toBe(before);
  });

  it('[U8] Undo is offered for a few seconds after the skip, then no more', () => {
    expect(UNDO_WINDOW_MS).toBe(8_000);
    expect(undoOpen({ atMs: 10_000 }, 10_000)).toBe(true);
    expect(undoOpen({ atMs: 10_000 }, 17_999)).toBe(true);
    expect(undoOpen({ atMs: 10_000 }, 18_000)).toBe(false);
    expect(undoOpen(undefined, 0)).toBe(false);
  });

  it('[U10] a reload reads the marks back; unreadable or month-old ones are dropped', async () => {
    const now = Date.now();
    localStorage.setItem(
      SKIPS_STORAGE_KEY,
      JSON.stringify({ version: 1, state: { skipped: { fresh: { atMs: now }, old: { atMs: now - 40 * 24 * 3600_000 } } } }),
    );
    await useSkipsStore.persist.rehydrate();
    expect(Object.keys(useSkipsStore.getState().skipped)).toEqual(['fresh']);
    expect(readSkips({ skipped: { x: { atMs: 'soon' } } })).toEqual({ skipped: {} });
    expect(typeof useSkipsStore.getState().actions.asyncSkipped).toBe('function');
  });

  it('[U10] a skip made in another tab shows here too (the storage event)', async () => {
    const atMs = Date.now();
    localStorage.setItem(SKIPS_STORAGE_KEY, JSON.stringify({ version: 1, state: { skipped: { q2: { atMs } } } }));
    window.dispatchEvent(new StorageEvent('storage', { key: SKIPS_STORAGE_KEY }));
    await expect.poll(() => useSkipsStore.getState().skipped).toEqual({ q2: { atMs } });
  });
});
