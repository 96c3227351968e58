import type { ConnectionState } from '../../../../client/client.ts';

export type ConnectionView = {
  tone: 'ok' | 'busy' | 'down';
  /** What the status announces. */
  label: 'Connected' | 'Connecting' | 'Reconnecting' | 'Offline' | 'Disconnected' | 'Refused';
  /** Seconds until the next attempt, shown beside the label while reconnecting. */
  retryInSeconds?: number;
  /** Whether "Reconnect now" makes sense. */
  canRetry: boolean;
};

/** `refused`: the gateway's reason for refusing this page's socket (S1/S3), which no retry changes. */
export function describeConnection(state: ConnectionState, browserOffline: boolean, nowMs: number, refused: string | null = null): ConnectionView {
  if (state.status === 'connected') return { tone: 'ok', label: 'Connected', canRetry: false };
  if (refused && !browserOffline && state.status === 'reconnecting') return { tone: 'down', label: 'Refused', canRetry: true };
  if (browserOffline || state.status === 'offline') return { tone: 'down', label: 'Offline', canRetry: true };
  if (state.status === 'closed') return { tone: 'down', label: 'Disconnected', canRetry: false };
  // Attempt 0 means no failure yet (a restarted client), which is still a first connect.
  if (state.status === 'connecting' || state.attempt === 0) return { tone: 'busy', label: 'Connecting', canRetry: false };
  const retryInSeconds =
    state.nextAttemptAtMs === undefined ? undefined : Math.max(0, Math.ceil((state.nextAttemptAtMs - nowMs) / 1000));
  return { tone: 'busy', label: 'Reconnecting', retryInSeconds, canRetry: true };
}
