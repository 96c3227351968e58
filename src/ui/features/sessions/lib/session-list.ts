import type { Scope, Session } from '../../../../protocol/index.ts';
import { SESSION_READER_SCOPES } from '../../../../protocol/rules.ts';
import { holdsAnyOf } from '../../../lib/scopes.ts';

/** A2: whether a sign-in with these scopes may list sessions (operator.questions alone may not: sessions.list refuses it). */
export function mayListSessions(scopes: readonly Scope[]): boolean {
  return holdsAnyOf(scopes, SESSION_READER_SCOPES);
}

/** What the sessions list and the home page say when sessions.list answers FORBIDDEN. */
export const CANNOT_LIST_SESSIONS = 'This sign-in cannot list sessions (that needs the operator.read scope); it can still answer the questions that reach it.';

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

export type SessionGroup = { label: 'Today' | 'Yesterday' | 'Earlier'; sessions: Session[] };

function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The sorted list cut by last activity into Today, Yesterday and Earlier (local days); empty groups are left out. */
export function groupByDay(sessions: readonly Session[], nowMs: number): SessionGroup[] {
  const today = startOfDay(nowMs);
  const yesterday = startOfDay(today - 1);
  const groups: SessionGroup[] = [
    { label: 'Today', sessions: [] },
    { label: 'Yesterday', sessions: [] },
    { label: 'Earlier', sessions: [] },
  ];
  for (const session of sessions) {
    const at = lastActivityMs(session);
    groups[at >= today ? 0 : at >= yesterday ? 1 : 2].sessions.push(session);
  }
  return groups.filter((g) => g.sessions.length > 0);
}
