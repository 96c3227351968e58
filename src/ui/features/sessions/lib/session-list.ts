import type { Session } from '../../../../protocol/index.ts';

/** When a session last moved: its newest message, else its creation. */
export function lastActivityMs(session: Session): number {
  return session.lastMessageAtMs ?? session.createdAtMs;
}

/** Most recently active first; ties keep the newer session on top. */
export function sortSessions(sessions: readonly Session[]): Session[] {
  return [...sessions].sort((a, b) => lastActivityMs(b) - lastActivityMs(a) || b.createdAtMs - a.createdAtMs);
}

/** Replaces the session with the same key or adds it, keeping the list sorted. */
export function upsertSession(sessions: readonly Session[] | undefined, session: Session): Session[] {
  const rest = (sessions ?? []).filter((s) => s.key !== session.key);
  // A session without presence (an older gateway, a stored event) keeps what the list or a presence event said (U18).
  const agentPresence = session.agentPresence ?? sessions?.find((s) => s.key === session.key)?.agentPresence;
  return sortSessions([...rest, agentPresence ? { ...session, agentPresence } : session]);
}

export function sessionTitle(session: Pick<Session, 'title'>): string {
  return session.title.trim() || 'Untitled session';
}
