import type { Session } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { LatestPrivilegedReply, PrivilegedReplyFilter, StoredEvent } from '../store/types.ts';
import { seesEveryQuestion } from './visibility.ts';

/**
 * A3 for a session's lastMessageAtMs: the stored value leaves out replies to privileged questions (everyone may know
 * it); an identity that may read such a reply sees the session moved by it too. Those are the identities that see
 * every question, and the agent that asked; for anyone else no reply is read, so nothing it sees can depend on one.
 */
export function privilegedRepliesReadBy(identity: Identity): PrivilegedReplyFilter | null {
  if (seesEveryQuestion(identity)) return {};
  return identity.scopes.has('agent.run') ? { askedBy: identity.id } : null;
}

/** Whether this identity may read the replies to `askedBy`'s privileged questions (as privilegedRepliesReadBy). */
function readsRepliesOf(identity: Identity, askedBy: string): boolean {
  return askedBy === identity.id || seesEveryQuestion(identity);
}

/** Per session, the newest of these replies this identity may read. */
export function latestReadBy(identity: Identity, replies: readonly LatestPrivilegedReply[]): Map<string, number> {
  const latest = new Map<string, number>();
  // Decided by the identity alone, so one that may read none does no work that depends on the replies.
  if (privilegedRepliesReadBy(identity) === null) return latest;
  for (const r of replies) {
    if (!readsRepliesOf(identity, r.askedBy)) continue;
    const known = latest.get(r.sessionKey);
    if (known === undefined || known < r.atMs) latest.set(r.sessionKey, r.atMs);
  }
  return latest;
}

/** The session with its lastMessageAtMs moved up to `atMs` when that is later (never back). */
export function movedTo(session: Session, atMs: number | undefined): Session {
  if (atMs === undefined || (session.lastMessageAtMs !== null && session.lastMessageAtMs >= atMs)) return session;
  return { ...session, lastMessageAtMs: atMs };
}

const activity = (s: Session) => s.lastMessageAtMs ?? s.createdAtMs;

/** C1's order (newest activity first) once some sessions moved; the store's order stays among equal times. */
export function newestFirst(sessions: Session[]): Session[] {
  return [...sessions].sort((a, b) => activity(b) - activity(a));
}

/**
 * The newest privileged reply per session and asker, known in process so that shaping a `session.updated` for a viewer
 * costs no read: loaded once from the store, then kept from the `chat` events of privileged replies as they go out
 * (this gateway's and, on a shared database, the others'), before any viewer's frame is made of them.
 */
export class PrivilegedActivity {
  private readonly latest = new Map<string, Map<string, number>>();

  note(r: LatestPrivilegedReply): void {
    let bySession = this.latest.get(r.sessionKey);
    if (!bySession) this.latest.set(r.sessionKey, (bySession = new Map()));
    const known = bySession.get(r.askedBy);
    if (known === undefined || known < r.atMs) bySession.set(r.askedBy, r.atMs);
  }

  /** A privileged reply's `chat` event is marked for its question's viewers only (core.appendMessage). */
  noteEvents(events: readonly StoredEvent[]): void {
    for (const ev of events) {
      const only = ev.audience.questionViewersOnly;
      if (ev.event !== 'chat' || !only?.privileged || ev.audience.sessionKey === null) continue;
      const at = (ev.payload as { message?: { createdAtMs?: number } }).message?.createdAtMs;
      if (typeof at === 'number') this.note({ sessionKey: ev.audience.sessionKey, askedBy: only.askedBy, atMs: at });
    }
  }

  /** The newest privileged reply of this session this identity may read, if any. */
  readBy(identity: Identity, sessionKey: string): number | undefined {
    if (privilegedRepliesReadBy(identity) === null) return undefined;
    let newest: number | undefined;
    for (const [askedBy, at] of this.latest.get(sessionKey) ?? []) if (readsRepliesOf(identity, askedBy) && (newest === undefined || newest < at)) newest = at;
    return newest;
  }
}
