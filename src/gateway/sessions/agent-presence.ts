import type { AgentPresence, Session } from '../../protocol/index.ts';
import type { Clock } from '../infra/clock.ts';

/**
 * A listed session with its agent's presence. Not `{ ...session, agentPresence }`: V8 gives a spread copy a hidden class
 * of its own, so a key added after the spread makes a new hidden class (and descriptor array) for every session of
 * every list, each garbage in the old generation (S5: about a million per 100k-frame fuzz run). Assigned onto an empty
 * object, every copy shares one.
 */
export function withAgentPresence(session: Session, agentPresence: AgentPresence): Session {
  return Object.assign({}, session, { agentPresence });
}

type Here = { connections: number; demo: number; sinceMs: number };

/**
 * U18: which agents have a connection to this gateway (and since when, or since when they left), and which sessions
 * have a run open. Kept in memory by the connection layer; a session's presence is read from it when listed, and
 * every change is announced through `onChange` (agent id, or the session whose run opened or ended).
 */
export class AgentPresenceTracker {
  private readonly here = new Map<string, Here>();
  private readonly leftAtMs = new Map<string, number>();
  /** Open runs by session: run id -> start time. */
  private readonly runs = new Map<string, Map<string, number>>();

  constructor(
    private readonly clock: Clock,
    private readonly onChange: (change: { agentId: string } | { sessionKey: string }) => void,
  ) {}

  connected(agentId: string, demo: boolean): void {
    const was = this.here.get(agentId);
    const now = was ?? { connections: 0, demo: 0, sinceMs: this.clock.now() };
    now.connections++;
    if (demo) now.demo++;
    this.here.set(agentId, now);
    if (!was) this.onChange({ agentId });
  }

  disconnected(agentId: string, demo: boolean): void {
    const was = this.here.get(agentId);
    if (!was) return;
    was.connections--;
    if (demo) was.demo--;
    if (was.connections > 0) return;
    this.here.delete(agentId);
    this.leftAtMs.set(agentId, this.clock.now());
    this.onChange({ agentId });
  }

  runStarted(sessionKey: string, runId: string, atMs = this.clock.now()): void {
    const open = this.runs.get(sessionKey) ?? new Map<string, number>();
    if (open.has(runId)) return;
    open.set(runId, atMs);
    this.runs.set(sessionKey, open);
    this.onChange({ sessionKey });
  }

  runEnded(sessionKey: string, runId: string): void {
    const open = this.runs.get(sessionKey);
    if (!open?.delete(runId)) return;
    if (open.size === 0) this.runs.delete(sessionKey);
    this.onChange({ sessionKey });
  }

  /** An agent alone: connected since, or absent since it left (null: not seen since this gateway started). */
  ofAgent(agentId: string): AgentPresence {
    const here = this.here.get(agentId);
    if (here) return { state: 'connected', sinceMs: here.sinceMs };
    return { state: 'absent', sinceMs: this.leftAtMs.get(agentId) ?? null };
  }

  /** Whether the demo agent of `askdock start` is connected as this agent. */
  isDemo(agentId: string): boolean {
    return (this.here.get(agentId)?.demo ?? 0) > 0;
  }

  /** A session's: working while a run is open in it, else its agent's. */
  ofSession(sessionKey: string, agentId: string | null): AgentPresence | undefined {
    const open = this.runs.get(sessionKey);
    if (open?.size) return { state: 'working', sinceMs: Math.min(...open.values()) };
    return agentId === null ? undefined : this.ofAgent(agentId);
  }
}
