import { z } from 'zod';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { own } from '../../../../protocol/index.ts';

const SessionDockSchema = z.object({ currentId: z.string().nullable(), collapsed: z.boolean() });
const PersistedSchema = z.object({
  docks: z.record(z.string(), SessionDockSchema),
  reopened: z.record(z.string(), z.literal(true)),
});
export type SessionDock = z.infer<typeof SessionDockSchema>;
type Persisted = z.infer<typeof PersistedSchema>;

/** Where focus should go after the next render: into the current request, or back to the composer. */
export type FocusRequest = { sessionKey: string; target: 'request' | 'composer'; tick: number; recordId?: string };

type Actions = {
  requestSelected(sessionKey: string, id: string): void;
  dockCollapsed(sessionKey: string, opts?: { focusComposer?: boolean }): void;
  dockExpanded(sessionKey: string, opts?: { focus?: boolean }): void;
  /** A new blocking question takes priority: it becomes current, expands the dock and takes focus (U6). */
  blockingQuestionArrived(sessionKey: string, id: string): void;
  /**
   * A question put back in the dock as current and expanded: a retired reminder asked for again from the transcript,
   * an undone skip, a discarded answer (U8, U9). Focus follows only when this tab acted.
   */
  reminderReopened(sessionKey: string, id: string, opts?: { focus?: boolean }): void;
  /** A reminder that retired while being answered stays in the dock rather than vanishing under the person (U8). */
  reminderKept(id: string): void;
  focusRequested(sessionKey: string, target: FocusRequest['target']): void;
  focusHandled(tick: number): void;
};

type DockUiState = Persisted & { focus: FocusRequest | null; actions: Actions };

const CLOSED: SessionDock = Object.freeze({ currentId: null, collapsed: false }) as SessionDock;
let ticks = 0;

export const useDockUiStore = create<DockUiState>()(
  persist(
    (set) => {
      // One set per action, so a render never sees the dock state without its focus request.
      const docked = (s: DockUiState, sessionKey: string, change: Partial<SessionDock>) => ({
        docks: { ...s.docks, [sessionKey]: { ...(own(s.docks, sessionKey) ?? CLOSED), ...change } },
      });
      const focusOn = (sessionKey: string, target: FocusRequest['target'], recordId?: string): FocusRequest => ({
        sessionKey,
        target,
        tick: ++ticks,
        recordId,
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
            set((s) => ({ ...docked(s, sessionKey, { currentId: id, collapsed: false }), focus: focusOn(sessionKey, 'request', id) })),
          reminderReopened: (sessionKey, id, opts) =>
            set((s) => ({
              ...docked(s, sessionKey, { currentId: id, collapsed: false }),
              reopened: { ...s.reopened, [id]: true },
              ...(opts?.focus === false ? {} : { focus: focusOn(sessionKey, 'request', id) }),
            })),
          reminderKept: (id) => set((s) => (own(s.reopened, id) ? s : { reopened: { ...s.reopened, [id]: true } })),
          focusRequested: (sessionKey, target) => set({ focus: focusOn(sessionKey, target) }),
          focusHandled: (tick) => set((s) => (s.focus?.tick === tick ? { focus: null } : s)),
        },
      };
    },
    {
      name: 'askdock.question-dock',
      version: 1,
      // Per tab: another tab may sit on another request or keep its dock open.
      storage: createJSONStorage(() => sessionStorage),
      partialize: (s): Persisted => ({ docks: s.docks, reopened: s.reopened }),
      migrate: (persisted) => readPersisted(persisted),
      merge: (persisted, current) => ({ ...current, ...readPersisted(persisted) }),
    },
  ),
);

function readPersisted(value: unknown): Persisted {
  const parsed = PersistedSchema.safeParse(value);
  return parsed.success ? parsed.data : { docks: {}, reopened: {} };
}

export const useSessionDock = (sessionKey: string): SessionDock => useDockUiStore((s) => own(s.docks, sessionKey) ?? CLOSED);
export const useReopened = (): Record<string, true> => useDockUiStore((s) => s.reopened);
export const useFocusRequest = (sessionKey: string): FocusRequest | null =>
  useDockUiStore((s) => (s.focus?.sessionKey === sessionKey ? s.focus : null));
export const useDockUiActions = (): Actions => useDockUiStore((s) => s.actions);
export const dockUiActions = (): Actions => useDockUiStore.getState().actions;
