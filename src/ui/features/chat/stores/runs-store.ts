import { create } from 'zustand';

type Failed = { runId: string; stopReason: string; atMs: number };
type RunsState = {
  /** Open runs per session: the agent is working there. */
  working: Record<string, string[]>;
  /** Runs that ended badly while this page was open, per session (the gateway keeps no run rows in history). */
  failed: Record<string, Failed[]>;
  runStarted: (sessionKey: string, runId: string) => void;
  runEnded: (sessionKey: string, runId: string, stopReason: string) => void;
};

const BAD_ENDINGS = new Set(['error', 'timeout']);

export const useRunsStore = create<RunsState>((set) => ({
  working: {},
  failed: {},
  runStarted: (sessionKey, runId) =>
    set((s) => ({ working: { ...s.working, [sessionKey]: [...(s.working[sessionKey] ?? []).filter((id) => id !== runId), runId] } })),
  runEnded: (sessionKey, runId, stopReason) =>
    set((s) => ({
      working: { ...s.working, [sessionKey]: (s.working[sessionKey] ?? []).filter((id) => id !== runId) },
      failed: BAD_ENDINGS.has(stopReason)
        ? { ...s.failed, [sessionKey]: [...(s.failed[sessionKey] ?? []), { runId, stopReason, atMs: Date.now() }].slice(-20) }
        : s.failed,
    })),
}));

const NONE: Failed[] = [];
export const useAgentWorking = (sessionKey: string) => useRunsStore((s) => (s.working[sessionKey]?.length ?? 0) > 0);
export const useFailedRuns = (sessionKey: string) => useRunsStore((s) => s.failed[sessionKey] ?? NONE);
export const runsActions = () => useRunsStore.getState();
