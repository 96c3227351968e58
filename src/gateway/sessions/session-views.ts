import type { Session } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { EventView } from '../hub/hub.ts';
import { textFrame, type WireFrame } from '../hub/wire.ts';
import type { EventAudience, LatestPrivilegedReply, Store, StoredEvent } from '../store/types.ts';
import { withAgentPresence, type AgentPresenceTracker } from './agent-presence.ts';
import { latestReadBy, movedTo, newestFirst, PrivilegedActivity, privilegedRepliesReadBy } from './privileged-activity.ts';
import type { SessionAccess } from './session-access.ts';
import { eventPayloadFor } from '../routing/handoff-view.ts';
import { classesBySession, classesOfTold, countVisible, type QuestionClass } from './pending-counts.ts';
import { canReadSession, canSeeEvent, countsSomeQuestions, sessionFor, seesEveryQuestion, viewDependsOnIdentityOnly, type Viewer } from './visibility.ts';

/**
 * Sessions as each identity sees them (A3-A5, U18): its own pending count, the privileged replies it may read, the
 * agent's presence; in a listing, a snapshot, and each `session.updated` of a fan-out (`view`, read ahead by `prepare`).
 */
export class SessionViews {
  /** Open questions per session by class (pendingTallies), read ahead for the `session.updated` events of one fan-out (prepare). */
  private pendingAhead = new Map<string, QuestionClass[]>();
  /** A3: the newest privileged reply per session and asker, for the `session.updated` of those who may read it. */
  private readonly privilegedActivity = new PrivilegedActivity();
  /** An event's pending questions as its audience tells them, by class, made once for all its viewers. */
  private readonly told = new WeakMap<StoredEvent, QuestionClass[]>();

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
    // A3: one aggregate of a few rows (one per asker and privilege), never the questions themselves.
    const [owner, tallies] = await Promise.all([this.access.ownerOf(sessionKey), this.store.pendingTallies(sessionKey)]);
    return countVisible(identity, sessionKey, tallies, owner);
  }

  /** A session as this identity sees it: its own pending count (A3) and the agent's current presence (U18). */
  async sessionFor(identity: Identity, session: Session): Promise<Session> {
    const moved = movedTo(session, this.privilegedActivity.readBy(identity, session.key));
    if (seesEveryQuestion(identity)) return this.withPresence(moved);
    const count = countsSomeQuestions(identity) ? await this.countVisiblePending(identity, session.key) : 0;
    return this.withPresence(sessionFor(identity, moved, () => count));
  }

  /** A3: the latest privileged replies this identity may read, or no read at all when it may read none. */
  private async privilegedRepliesFor(identity: Identity): Promise<LatestPrivilegedReply[]> {
    const filter = privilegedRepliesReadBy(identity);
    return filter ? await this.store.latestPrivilegedReplies(filter) : [];
  }

  /**
   * The sessions this identity may read, each as it sees it. The open questions' tallies are read once for the whole
   * list, not once per session: a list of a thousand sessions is two store reads (with PostgreSQL two round trips, not a
   * thousand), and neither reads a question. The privileged replies it may read (A3) are one more read for the whole
   * list, sent together with the sessions'.
   */
  async visibleSessions(identity: Identity): Promise<Session[]> {
    const [stored, replies] = await Promise.all([this.store.listSessions(), this.privilegedRepliesFor(identity)]);
    const latest = latestReadBy(identity, replies);
    const readable = stored.map((s) => movedTo(this.access.resolve(s), latest.get(s.key))).filter((s) => canReadSession(identity, s));
    const ordered = latest.size > 0 ? newestFirst(readable) : readable;
    if (seesEveryQuestion(identity) || !countsSomeQuestions(identity) || ordered.length === 0)
      return ordered.map((s) => this.withPresence(sessionFor(identity, s, () => 0)));
    const pending = classesBySession(await this.store.pendingTallies());
    return ordered.map((s) => this.withPresence(sessionFor(identity, s, () => countVisible(identity, s.key, pending.get(s.key) ?? [], s.createdBy))));
  }

  /** Reads what `view` needs of these events (sessions' access, pending questions), so the fan-out never waits. */
  readonly prepare = async (events: StoredEvent[]): Promise<void> => {
    // Every fan-out (own, another gateway's, a replay) passes here first: the replies' times are known before any view.
    this.privilegedActivity.noteEvents(events);
    const pending = new Map<string, QuestionClass[]>();
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
        reads.push(this.store.pendingTallies(key).then((tallies) => pending.set(key, tallies)));
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

  private pendingTold(ev: StoredEvent, pending: NonNullable<EventAudience['pending']>): QuestionClass[] {
    let classes = this.told.get(ev);
    if (!classes) this.told.set(ev, (classes = classesOfTold(pending)));
    return classes;
  }

  private viewFor(viewer: Viewer, ev: StoredEvent, shared: () => WireFrame): WireFrame | null {
    const cached = this.access.cached;
    if (!canSeeEvent(viewer, ev.audience, cached)) return null;
    if (ev.event !== 'session.updated') {
      // E6: a hand-off's drafts reach its targets alone.
      const own = eventPayloadFor(ev, viewer.identity.id);
      return own === undefined ? shared() : textFrame(JSON.stringify({ type: 'event', event: ev.event, payload: own, seq: ev.seq }));
    }
    // The stored session carries no presence (it is live, U18): each view adds the current one.
    const { session } = ev.payload as { session: Session };
    const owner = cached(session.key)?.createdBy;
    const pending = ev.audience.pending ? this.pendingTold(ev, ev.audience.pending) : (this.pendingAhead.get(session.key) ?? []);
    const moved = movedTo(session, this.privilegedActivity.readBy(viewer.identity, session.key));
    const counted = seesEveryQuestion(viewer.identity) ? moved : sessionFor(viewer.identity, moved, () => countVisible(viewer.identity, session.key, pending, owner));
    const payload = { session: this.withPresence(counted) };
    return textFrame(JSON.stringify({ type: 'event', event: ev.event, payload, seq: ev.seq }));
  }
}
