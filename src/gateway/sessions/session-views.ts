import type { Session } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { EventView } from '../hub/hub.ts';
import { textFrame, type WireFrame } from '../hub/wire.ts';
import type { EventAudience, LatestPrivilegedReply, Store, StoredEvent, StoredQuestion } from '../store/types.ts';
import { withAgentPresence, type AgentPresenceTracker } from './agent-presence.ts';
import { latestReadBy, movedTo, newestFirst, PrivilegedActivity, privilegedRepliesReadBy } from './privileged-activity.ts';
import type { SessionAccess } from './session-access.ts';
import { canReadSession, canSeeEvent, canSeeQuestion, sessionFor, seesEveryQuestion, viewDependsOnIdentityOnly, type QuestionLike, type Viewer } from './visibility.ts';

/**
 * Sessions as each identity sees them (A3-A5, U18): its own pending count, the privileged replies it may read, the
 * agent's presence; in a listing, a snapshot, and each `session.updated` of a fan-out (`view`, read ahead by `prepare`).
 */
export class SessionViews {
  /** Pending questions per session, read ahead for the `session.updated` events of one fan-out (prepare). */
  private pendingAhead = new Map<string, StoredQuestion[]>();
  /** A3: the newest privileged reply per session and asker, for the `session.updated` of those who may read it. */
  private readonly privilegedActivity = new PrivilegedActivity();
  /** An event's pending questions as its audience tells them, in their session (visibility depends on it), made once. */
  private readonly told = new WeakMap<StoredEvent, QuestionLike[]>();

  constructor(
    private readonly store: Store,
    private readonly access: SessionAccess,
    private readonly presence: AgentPresenceTracker,
    /** Whether some connected viewer is `pred`'s (the hub's subscribers). */
    private readonly anyViewer: (pred: (viewer: Viewer) => boolean) => boolean,
  ) {}

  /** Before the first fan-out: the privileged replies sent so far (a reply noted twice changes nothing). */
  async start(): Promise<void> {
    for (const reply of await this.store.latestPrivilegedReplies({})) this.privilegedActivity.note(reply);
  }

  /** A listed session with its agent's presence (U18). */
  withPresence(session: Session): Session {
    const agentPresence = this.presence.ofSession(session.key, session.agentId);
    return agentPresence ? withAgentPresence(session, agentPresence) : session;
  }

  /** Counts as the store does: pending and not retired (Q10), here only those this identity may see. */
  async countVisiblePending(identity: Identity, sessionKey: string): Promise<number> {
    const owner = await this.access.ownerOf(sessionKey);
    const pending = await this.store.listQuestions({ sessionKey, status: 'pending' });
    return countVisible(identity, pending, owner);
  }

  /** A session as this identity sees it: its own pending count (A3) and the agent's current presence (U18). */
  async sessionFor(identity: Identity, session: Session): Promise<Session> {
    const moved = movedTo(session, this.privilegedActivity.readBy(identity, session.key));
    if (seesEveryQuestion(identity)) return this.withPresence(moved);
    const count = await this.countVisiblePending(identity, session.key);
    return this.withPresence(sessionFor(identity, moved, () => count));
  }

  /** A3: the latest privileged replies this identity may read, or no read at all when it may read none. */
  private async privilegedRepliesFor(identity: Identity): Promise<LatestPrivilegedReply[]> {
    const filter = privilegedRepliesReadBy(identity);
    return filter ? await this.store.latestPrivilegedReplies(filter) : [];
  }

  /**
   * The sessions this identity may read, each as it sees it. The pending questions are read once for the whole list, not
   * once per session: a list of a thousand sessions is two store reads (with PostgreSQL two round trips, not a thousand),
   * and a third less allocation under S5's fuzz run, which asks for it every few frames. The privileged replies it may
   * read (A3) are one more read for the whole list, sent together with the sessions'.
   */
  async visibleSessions(identity: Identity): Promise<Session[]> {
    const [stored, replies] = await Promise.all([this.store.listSessions(), this.privilegedRepliesFor(identity)]);
    const latest = latestReadBy(identity, replies);
    const readable = stored.map((s) => movedTo(this.access.resolve(s), latest.get(s.key))).filter((s) => canReadSession(identity, s));
    const ordered = latest.size > 0 ? newestFirst(readable) : readable;
    if (seesEveryQuestion(identity) || ordered.length === 0) return ordered.map((s) => this.withPresence(s));
    const pending = new Map<string, StoredQuestion[]>();
    for (const q of await this.store.listQuestions({ status: 'pending' })) {
      if (q.sessionKey === undefined || q.sessionKey === null) continue;
      const list = pending.get(q.sessionKey);
      if (list) list.push(q);
      else pending.set(q.sessionKey, [q]);
    }
    return ordered.map((s) => this.withPresence(sessionFor(identity, s, () => countVisible(identity, pending.get(s.key) ?? [], s.createdBy))));
  }

  /** Reads what `view` needs of these events (sessions' access, pending questions), so the fan-out never waits. */
  readonly prepare = async (events: StoredEvent[]): Promise<void> => {
    // Every fan-out (own, another gateway's, a replay) passes here first: the replies' times are known before any view.
    this.privilegedActivity.noteEvents(events);
    const pending = new Map<string, StoredQuestion[]>();
    const reads: Promise<unknown>[] = [];
    const asked = new Set<string>();
    // Counts per viewer are needed only where a connected viewer does not see every question (A3).
    const counted = this.anyViewer((viewer) => !seesEveryQuestion(viewer.identity));
    // All at once: on a network database each read is a round trip, and they do not depend on each other.
    for (const ev of events) {
      const key = ev.audience.sessionKey;
      if (key === null) continue;
      if (this.access.cached(key) === undefined && !asked.has(key)) {
        asked.add(key);
        reads.push(this.access.accessOf(key));
      }
      if (counted && ev.event === 'session.updated' && !ev.audience.pending && !pending.has(key)) {
        pending.set(key, []);
        reads.push(this.store.listQuestions({ sessionKey: key, status: 'pending' }).then((qs) => pending.set(key, qs)));
      }
    }
    await Promise.all(reads);
    this.pendingAhead = pending;
  };

  /**
   * Visibility first (A4), then a per-viewer session count where the viewer may not see every question. In one fan-out
   * it is decided once per identity where the identity alone decides (viewDependsOnIdentityOnly): many tabs of one
   * operator cost one decision and share one frame.
   */
  readonly view: EventView = (viewer, ev, shared, decided) => {
    if (!decided) return this.viewFor(viewer, ev, shared);
    // Only identities whose view is theirs alone are kept, so a kept decision is looked up before that is asked.
    const known = decided.get(viewer.identity);
    if (known !== undefined) return known;
    if (!viewDependsOnIdentityOnly(viewer.identity)) return this.viewFor(viewer, ev, shared);
    const out = this.viewFor(viewer, ev, shared);
    decided.set(viewer.identity, out);
    return out;
  };

  private pendingTold(ev: StoredEvent, pending: NonNullable<EventAudience['pending']>): QuestionLike[] {
    let list = this.told.get(ev);
    if (!list) this.told.set(ev, (list = pending.map((q) => ({ sessionKey: ev.audience.sessionKey, askedBy: q.askedBy, privileged: q.privileged === true }))));
    return list;
  }

  private viewFor(viewer: Viewer, ev: StoredEvent, shared: () => WireFrame): WireFrame | null {
    const cached = this.access.cached;
    if (!canSeeEvent(viewer, ev.audience, cached)) return null;
    if (ev.event !== 'session.updated') return shared();
    // The stored session carries no presence (it is live, U18): each view adds the current one.
    const { session } = ev.payload as { session: Session };
    const owner = cached(session.key)?.createdBy;
    const pending = ev.audience.pending ? this.pendingTold(ev, ev.audience.pending) : (this.pendingAhead.get(session.key) ?? []);
    const moved = movedTo(session, this.privilegedActivity.readBy(viewer.identity, session.key));
    const counted = seesEveryQuestion(viewer.identity) ? moved : sessionFor(viewer.identity, moved, () => countVisible(viewer.identity, pending, owner));
    const payload = { session: this.withPresence(counted) };
    return textFrame(JSON.stringify({ type: 'event', event: ev.event, payload, seq: ev.seq }));
  }
}

/** Pending, not retired questions of one session that this identity may see. */
function countVisible(identity: Identity, pending: (QuestionLike & { retiredAtMs?: number })[], owner: string | undefined): number {
  return pending.filter((q) => q.retiredAtMs === undefined && canSeeQuestion(identity, q, owner)).length;
}
