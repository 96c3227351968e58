import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { own } from '../../../../protocol/rules.ts';
import { followOtherTabs } from './cross-tab.ts';
import { number, object, read, record, type Checked } from '../../../lib/shape.ts';

/**
 * Async questions skipped in this browser. Skipping one sends nothing (U8), so the gateway never hears of it:
 * the mark lives here, persisted and shared by the tabs, and keeps the question out of the dock.
 */
const MarkSchema = object({ atMs: number });
const PersistedSchema = object({ skipped: record(MarkSchema) });
export type SkipMark = Checked<typeof MarkSchema>;
type Persisted = Checked<typeof PersistedSchema>;

export const SKIPS_STORAGE_KEY = 'askdock.question-skips';
/** How long a skipped question's summary offers Undo. */
export const UNDO_WINDOW_MS = 8_000;
const KEEP = 500;
const KEEP_MS = 30 * 24 * 3600_000;

type Actions = {
  asyncSkipped(recordId: string, atMs?: number): void;
  skipUndone(recordId: string): void;
};

type SkipsState = Persisted & { actions: Actions };

/** Keeps the newest marks and drops month-old ones, so storage stays small. */
function tidy(state: Persisted, now = Date.now()): Persisted {
  const entries = Object.entries(state.skipped)
    .filter(([, m]) => now - m.atMs < KEEP_MS)
    .sort((a, b) => b[1].atMs - a[1].atMs)
    .slice(0, KEEP);
  return { skipped: Object.fromEntries(entries) };
}

/** Anything unreadable in storage starts over empty. */
export function readSkips(value: unknown): Persisted {
  const parsed = read(PersistedSchema, value);
  return parsed ? tidy(parsed) : { skipped: {} };
}

/** Whether a skip can still be undone at `nowMs`. */
export const undoOpen = (mark: SkipMark | undefined, nowMs: number): boolean => !!mark && nowMs - mark.atMs < UNDO_WINDOW_MS;

export const useSkipsStore = create<SkipsState>()(
  persist(
    (set) => ({
      skipped: {},
      actions: {
        asyncSkipped: (recordId, atMs = Date.now()) => set((s) => ({ skipped: { ...s.skipped, [recordId]: { atMs } } })),
        skipUndone: (recordId) =>
          set((s) => {
            if (!Object.hasOwn(s.skipped, recordId)) return s;
            const { [recordId]: _gone, ...rest } = s.skipped;
            return { skipped: rest };
          }),
      },
    }),
    {
      name: SKIPS_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (s): Persisted => ({ skipped: s.skipped }),
      migrate: (persisted) => readSkips(persisted),
      merge: (persisted, current) => ({ ...current, ...readSkips(persisted) }),
    },
  ),
);

followOtherTabs(useSkipsStore, SKIPS_STORAGE_KEY);

const NONE: Record<string, SkipMark> = Object.freeze({}) as Record<string, SkipMark>;

export const useSkipped = (): Record<string, SkipMark> => useSkipsStore((s) => s.skipped ?? NONE);
export const useSkipMark = (recordId: string): SkipMark | undefined => useSkipsStore((s) => own(s.skipped, recordId));
export const skipActions = (): Actions => useSkipsStore.getState().actions;
