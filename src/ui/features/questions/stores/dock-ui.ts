import { create } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import { own } from '../../../../protocol/rules.ts';
import { afterNextPaintOrLeave } from '../../../lib/after-paint.ts';
import { changedOnlyStorage } from '../../../lib/changed-only-storage.ts';
import { boolean, fail, nullable, object, read, record, string, type Checked } from '../../../lib/shape.ts';

const SessionDockSchema = object({ currentId: nullable(string()), collapsed: boolean });
/** The retirement a reopened question was put back over (its `retiredAtMs`, 0 if it had none); `true` is an older tab's mark. */
const ReopenedSchema = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : v === true ? 0 : fail());
const PersistedSchema = object({ docks: record(SessionDockSchema), reopened: record(ReopenedSchema) });
export type SessionDock = Checked<typeof SessionDockSchema>;
type Persisted = Checked<typeof PersistedSchema>;

/** Where focus should go after the next render: into the current request, or back to the composer. */
export type FocusRequest = {
  sessionKey: string;
  target: 'request' | 'composer';
  tick: number;
  recordId?: string;
  /** A blocking question came in from the gateway or was there at load (no key or click of the person's): its first frame comes first. */
  arrival?: boolean;
};

type Actions = {
  requestSelected(sessionKey: string, id: string): void;
  dockCollapsed(sessionKey: string, opts?: { focusComposer?: boolean }): void;
  dockExpanded(sessionKey: string, opts?: { focus?: boolean }): void;
  /** A new blocking question takes priority: it becomes current, expands the dock and takes focus (U6). */
  blockingQuestionArrived(sessionKey: string, id: string): void;
  /** A blocking question already open when the dock loaded (a reload) takes focus as an arriving one does (U1). */
  blockingQuestionRestored(sessionKey: string, id: string): void;
  /**
   * Answer on a retired reminder: put back in the dock as current and expanded, over the retirement it had
   * (`retiredAtMs`); a later one retires it again (U8, Q10). Focus follows unless `focus` is false.
   */
  reminderReopened(sessionKey: string, id: string, opts: { retiredAtMs: number | undefined; focus?: boolean }): void;
  /**
   * An undone skip or a discarded answer gives the question back (U8, U9): to the dock, unless it retired meanwhile
   * and the person had not put it back over that retirement; then its summary offers Answer, with the draft kept.
   */
  draftReturned(sessionKey: string, id: string, opts: { retiredAtMs: number | undefined; focus?: boolean }): void;
  focusRequested(sessionKey: string, target: FocusRequest['target']): void;
  focusHandled(tick: number): void;
};

type DockUiState = Persisted & { focus: FocusRequest | null; actions: Actions };

const CLOSED: SessionDock = Object.freeze({ currentId: null, collapsed: false }) as SessionDock;
let ticks = 0;

/**
 * This tab's sessionStorage, written once the next frame is out (a new question's first paint does not wait on it;
 * leaving the page writes at once), and skipping a write of what it already holds: a focus request and its handling
 * change no persisted part, yet each would rewrite the key while a question is being shown. Only this tab reads it.
 */
const tabStorage = (): StateStorage => {
  const storage = changedOnlyStorage(() => sessionStorage)();
  const due = new Map<string, string>();
  const flush = () => {
    try {
      for (const [key, value] of due) void storage.setItem(key, value);
    } catch {
      // Storage full or gone: this tab's dock state is a convenience, and the store in memory stays right.
    } finally {
      due.clear();
    }
  };
  return {
    getItem: (key) => due.get(key) ?? storage.getItem(key),
    setItem: (key, value) => {
      if (due.size === 0) afterNextPaintOrLeave(flush);
      due.set(key, value);
    },
    removeItem: (key) => {
      due.delete(key);
      storage.removeItem(key);
    },
  };
};

export const useDockUiStore = create<DockUiState>()(
  persist(
    (set) => {
      // One set per action, so a render never sees the dock state without its focus request.
      const docked = (s: DockUiState, sessionKey: string, change: Partial<SessionDock>) => ({
        docks: { ...s.docks, [sessionKey]: { ...(own(s.docks, sessionKey) ?? CLOSED), ...change } },
      });
      const focusOn = (sessionKey: string, target: FocusRequest['target'], recordId?: string, arrival?: boolean): FocusRequest => ({
        sessionKey,
        target,
        tick: ++ticks,
        recordId,
        ...(arrival ? { arrival } : {}),
      });
      const reopen = (s: DockUiState, sessionKey: string, id: string, over: number, focus: boolean | undefined) => ({
        ...docked(s, sessionKey, { currentId: id, collapsed: false }),
        reopened: { ...s.reopened, [id]: over },
        ...(focus === false ? {} : { focus: focusOn(sessionKey, 'request', id) }),
      });
      return {
        docks: {},
        reopened: {},
        focus: null,
        actions: {
          requestSelected: (sessionKey, id) => set((s) => docked(s, sessionKey, { currentId: id })),
          dockCollapsed: (sessionKey, opts) =>
            set((s) => ({
              ...docked(s, sessionKey, { collapsed: true }),
              ...(opts?.focusComposer ? { focus: focusOn(sessionKey, 'composer') } : {}),
            })),
          dockExpanded: (sessionKey, opts) =>
            set((s) => ({
              ...docked(s, sessionKey, { collapsed: false }),
              ...(opts?.focus ? { focus: focusOn(sessionKey, 'request') } : {}),
            })),
          blockingQuestionArrived: (sessionKey, id) =>
            set((s) => ({ ...docked(s, sessionKey, { currentId: id, collapsed: false }), focus: focusOn(sessionKey, 'request', id, true) })),
          blockingQuestionRestored: (sessionKey, id) => set({ focus: focusOn(sessionKey, 'request', id, true) }),
          reminderReopened: (sessionKey, id, { retiredAtMs, focus }) => set((s) => reopen(s, sessionKey, id, retiredAtMs ?? 0, focus)),
          draftReturned: (sessionKey, id, { retiredAtMs, focus }) =>
            set((s) => {
              const over = own(s.reopened, id) ?? 0;
              return retiredAtMs !== undefined && retiredAtMs > over ? s : reopen(s, sessionKey, id, over, focus);
            }),
          focusRequested: (sessionKey, target) => set({ focus: focusOn(sessionKey, target) }),
          focusHandled: (tick) => set((s) => (s.focus?.tick === tick ? { focus: null } : s)),
        },
      };
    },
    {
      name: 'askdock.question-dock',
      version: 1,
      // Per tab: another tab may sit on another request or keep its dock open.
      storage: createJSONStorage(tabStorage),
      partialize: (s): Persisted => ({ docks: s.docks, reopened: s.reopened }),
      migrate: (persisted) => readPersisted(persisted),
      merge: (persisted, current) => ({ ...current, ...readPersisted(persisted) }),
    },
  ),
);

function readPersisted(value: unknown): Persisted {
  return read(PersistedSchema, value) ?? { docks: {}, reopened: {} };
}

export const useSessionDock = (sessionKey: string): SessionDock => useDockUiStore((s) => own(s.docks, sessionKey) ?? CLOSED);
export const useReopened = (): Record<string, number> => useDockUiStore((s) => s.reopened);
export const useFocusRequest = (sessionKey: string): FocusRequest | null =>
  useDockUiStore((s) => (s.focus?.sessionKey === sessionKey ? s.focus : null));
export const useDockUiActions = (): Actions => useDockUiStore((s) => s.actions);
export const dockUiActions = (): Actions => useDockUiStore.getState().actions;
