import { useAgentWorking, useFailedRuns } from '../stores/runs-store.ts';

const REASON: Record<string, string> = { error: 'it hit an error', timeout: 'it timed out' };

/** Between the conversation and the dock: a quiet "working" line while a run is open, and an error row for each run that failed. */
export function RunStatus({ sessionKey, waiting }: { sessionKey: string; waiting: boolean }) {
  const working = useAgentWorking(sessionKey) && !waiting;
  const failed = useFailedRuns(sessionKey);
  if (!working && failed.length === 0) return null;
  return (
    <div className="run-status">
      {failed.map((run) => (
        <p key={run.runId} className="run-failed" role="status">
          {/* A known reason in words alone; an unknown one by its code, once. */}
          {REASON[run.stopReason] ? (
            <>The agent stopped: {REASON[run.stopReason]}.</>
          ) : (
            <>
              The agent stopped (<code>{run.stopReason}</code>).
            </>
          )}
        </p>
      ))}
      {working && (
        <p className="run-working">
          <span className="run-dots" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          Agent is working…
        </p>
      )}
    </div>
  );
}
