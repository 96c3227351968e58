import type { AgentPresence } from '../../../../protocol/index.ts';
import './agent-presence.css';
import { clockText, dayAndClockText } from '../../../../lib/clock-text.ts';
import { exactTime, useMinuteClock } from '../../../lib/relative-time.ts';

/** "14:05" today, "Dec 2 14:05" before: when the agent left, in the clock a session's title uses. */
function since(ms: number, nowMs: number): string {
  return new Date(ms).toDateString() === new Date(nowMs).toDateString() ? clockText(ms) : dayAndClockText(ms);
}

/**
 * U18 in words: connected, working (a run is open), or absent since when. A run that waits on the person's answer is
 * not "working": it says it waits for them.
 */
export function presenceText(presence: AgentPresence, nowMs: number, waiting = false): string {
  if (presence.state === 'working') return waiting ? 'Agent waiting for you' : 'Agent working';
  if (presence.state === 'connected') return 'Agent connected';
  return presence.sinceMs === null ? 'No agent connected' : `Agent absent since ${since(presence.sinceMs, nowMs)}`;
}

/**
 * U18: whether the session's agent is here, as a dot (the sessions list, its words for screen readers and on hover)
 * or a dot with its words (the session header). Nothing where the session has no agent.
 */
type IndicatorProps = { presence: AgentPresence | undefined; compact?: boolean; id?: string; waiting?: boolean };

export function AgentPresenceIndicator({ presence, compact = false, id, waiting = false }: IndicatorProps) {
  const now = useMinuteClock();
  if (!presence) return null;
  const text = presenceText(presence, now, waiting);
  const state = presence.state === 'working' && waiting ? 'waiting' : presence.state;
  const title = presence.sinceMs === null ? text : `${text} (${exactTime(presence.sinceMs)})`;
  return (
    <span className="agent-presence" data-state={state} data-compact={compact || undefined} title={title}>
      <span className="agent-presence-dot" aria-hidden="true" />
      {compact ? (
        // In a link the words describe it (aria-describedby reads hidden text) rather than join its name.
        <span id={id} hidden>
          {text}
        </span>
      ) : (
        <span id={id} className="agent-presence-text">
          {text}
        </span>
      )}
    </span>
  );
}

/** U18: under a message sent while the session's agent is absent, so it does not seem to wait for a reply. */
export function AbsentAgentNote({ presence }: { presence: AgentPresence | undefined }) {
  if (presence?.state !== 'absent') return null;
  return <p className="agent-presence-note">No agent is connected; it will get this when it connects</p>;
}
