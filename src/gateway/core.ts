import { AskdockError, type ChatMessage, type ChatState, type MessageRole, type ReplyTo, type Session } from '../protocol/index.ts';
import type { GatewayLog } from './infra/logger.ts';
import type { Authenticator, Identity } from './auth.ts';
import type { Clock, TimerHandle } from './infra/clock.ts';
import { AgentPresenceTracker, withAgentPresence } from './sessions/agent-presence.ts';
import { OrderStamps } from './runs/order-stamps.ts';
import { EventHub, type EventView, type Tx } from './hub/hub.ts';
import { newId } from './infra/ids.ts';
import { Duties } from './infra/duties.ts';
import { QuestionManager } from './questions/questions.ts';
import { RunService } from './runs/runs.ts';
import { isSharedStore, type SharedStore } from './store/postgres/store.ts';
import { SecretBox } from './secrets/secret-box.ts';
import { SecretManager } from './secrets/secrets.ts';
import { PushService, type PushOptions } from './push/push-service.ts';
import type { EventAudience, LatestPrivilegedReply, Store, StoredEvent, StoredQuestion } from './store/types.ts';
import { AgentSubscriptions } from './sessions/subscriptions.ts';
import type { Turn } from './hub/turn.ts';
import {
  canReadSession,
  canSeeEvent,
  canSeeQuestion,
  sessionFor,
  seesEveryQuestion,
  viewDependsOnIdentityOnly,
  type QuestionLike,
  type SessionLike,
  type Viewer,
} from './sessions/visibility.ts';
import { textFrame, type WireFrame } from './hub/wire.ts';
import { latestReadBy, movedTo, newestFirst, PrivilegedActivity, privilegedRepliesReadBy } from './sessions/privileged-activity.ts';

/** R2: events are kept at least this long and at least this many. */
export const KEEP_EVENTS = 10_000;
export const KEEP_EVENTS_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

export type CoreOptions = {
  requesterGraceMs: number;
  /** Pending questions one agent identity may hold at once; past it question.request answers RATE_LIMITED. */
  maxPendingQuestions: number;
  /** Checks every event payload and result against its schema before it leaves (tests, dev). */
  checkFrames: boolean;
  log: GatewayLog;
  /** The gateway's end-of-turn group commit and socket release, shared with its connections. */
  turn: Turn;
  /** K1: seals secret values before they reach the store (default: a key that lives as long as the process). */
  secretBox?: SecretBox;
  /** U17: the config's `push` section. */
  push?: PushOptions;
};

type NewMessage = {
  sessionKey: string;
  role: MessageRole;
  text: string;
  authorId: string;
  runId?: string;
  replyTo?: ReplyTo;
  /** A3: the message answers a privileged question asked by this agent, so it is privileged too. */
  privilegedReplyOf?: string;
  state: ChatState;
};

/** Everything a handler needs, wired once per gateway. */
export class Core {
  readonly hub: EventHub;
  readonly subscriptions: AgentSubscriptions;
  readonly questions: QuestionManager;
  readonly runs: RunService;
  private readonly access = new Map<string, SessionLike>();
  readonly secrets: SecretManager;
  /** U17: browsers' push subscriptions and the pushes of new and resolved questions. */
  readonly push: PushService;
  private pruneTimer: TimerHandle | null = null;
  /** This process among the gateways sharing a database (D3); also in its presence rows. */
  readonly gatewayId = newId('g');
  /** The store as a database several gateways share (leases, heartbeats, presence); null on SQLite or memory (one gateway). */
  readonly cluster: SharedStore | null;
  /** D3: the once-only duties, on a database several gateways share; null on SQLite or memory (one gateway). */
  readonly duties: Duties | null;
  /** Q10: times that keep what this process recorded in the order it recorded it. */
  readonly stamps: OrderStamps;
  /** U18: agents connected here and runs open, announced as `session.presence`. */
  readonly presence: AgentPresenceTracker;

  constructor(
    readonly store: Store,
    readonly clock: Clock,
    readonly auth: Authenticator,
    readonly opts: CoreOptions,
  ) {
    this.cluster = isSharedStore(store) ? store : null;
    this.hub = new EventHub({
      store,
      clock,
      view: this.view,
      checkPayloads: opts.checkFrames,
      log: opts.log,
      turn: opts.turn,
      onRollback: () => this.access.clear(),
      shareKey: (viewer) => (viewDependsOnIdentityOnly(viewer.identity) ? viewer.identity : null),
      prepare: (events) => this.prepareView(events),
    });
    this.stamps = new OrderStamps(clock);
    this.subscriptions = new AgentSubscriptions(store);
    this.questions = new QuestionManager(this, opts.requesterGraceMs);
    this.runs = new RunService(this);
    this.secrets = new SecretManager(this, opts.secretBox ?? SecretBox.ephemeral());
    this.push = new PushService(this, opts.push);
    this.duties = this.cluster
      ? new Duties(this.cluster, clock, this.gatewayId, (justTaken) => this.questions.runDuties(justTaken), opts.log)
      : null;
    this.hub.onHeard((ev) => {
      this.questions.heard(ev.event, ev.payload).catch((err: unknown) => opts.log.error({ err }, 'hearing an event failed'));
      this.secrets.heard(ev.event, ev.payload);
    });
    this.presence = new AgentPresenceTracker(clock, (change) => {
      this.announcePresence(change).catch((err: unknown) => opts.log.error({ err }, 'announcing presence failed'));
    });
    this.hub.listenAll((ev) => this.runPresence(ev));
  }

  /** U18: a run opened or ended, here or (shared database) on another gateway. */
  private runPresence(ev: StoredEvent): void {
    if (ev.event !== 'run.started' && ev.event !== 'run.ended') return;
    const { runId, sessionKey } = ev.payload as { runId: string; sessionKey: string | null };
    if (sessionKey === null) return;
    if (ev.event === 'run.started') this.presence.runStarted(sessionKey, runId);
    else this.presence.runEnded(sessionKey, runId);
  }

  /** U18: each session the change touches, to those who may read it (A4: a guest only its own sessions). */
  private async announcePresence(change: { agentId: string } | { sessionKey: string }): Promise<void> {
    if (this.hub.size === 0) return;
    const keys =
      'sessionKey' in change
        ? [change.sessionKey]
        : (await this.store.listSessions()).filter((s) => this.resolve(s).agentId === change.agentId).map((s) => s.key);
    for (const sessionKey of keys) {
      const access = await this.accessOf(sessionKey);
      const agentPresence = access && this.presence.ofSession(sessionKey, access.agentId);
      if (!agentPresence) continue;
      this.hub.sendLive('session.presence', { sessionKey, agentPresence }, (viewer) => canSeeEvent(viewer, { sessionKey }, this.cachedAccess));
    }
  }

  /** A listed session with its agent's presence (U18). */
  private withPresence(session: Session): Session {
    const agentPresence = this.presence.ofSession(session.key, session.agentId);
    return agentPresence ? withAgentPresence(session, agentPresence) : session;
  }

  async start(): Promise<void> {
    await this.hub.start();
    // Replies sent since are noted as their events go out (prepareView); a reply noted twice changes nothing.
    for (const reply of await this.store.latestPrivilegedReplies({})) this.privilegedActivity.note(reply);
    await this.subscriptions.load();
    for (const run of await this.store.activeRuns()) if (run.sessionKey !== null) this.presence.runStarted(run.sessionKey, run.runId, run.startedAtMs);
    await this.questions.start();
    this.secrets.start();
    this.push.start();
    this.duties?.start();
    void this.prune();
  }

  /** Commits what the current turn wrote, so the store can be closed right after. */
  async stop(): Promise<void> {
    this.questions.stop();
    this.secrets.stop();
    this.push.stop();
    if (this.pruneTimer) this.clock.clearTimeout(this.pruneTimer);
    this.pruneTimer = null;
    await this.hub.settle();
    this.hub.stopListening();
    await this.duties?.stop();
  }

  private async prune(): Promise<void> {
    try {
      // One unit of work among the others (hub.exclusive): its transaction never interleaves with a unit's.
      await this.hub.exclusive(() => this.store.pruneEvents(this.clock.now() - KEEP_EVENTS_MS, KEEP_EVENTS));
    } catch (err) {
      this.opts.log.error({ err }, 'pruning events failed');
    }
    this.pruneTimer = this.clock.setTimeout(() => void this.prune(), PRUNE_EVERY_MS);
  }

  /** A6: sessions stored before binding belong to the default agent. */
  resolve(session: Session): Session {
    return session.agentId !== null ? session : { ...session, agentId: this.auth.defaultAgentId };
  }

  /** Sessions never change creator or agent, so the lookup used by every fan-out is cached. */
  readonly accessOf = async (sessionKey: string): Promise<SessionLike | undefined> => {
    const hit = this.access.get(sessionKey);
    if (hit !== undefined) return hit;
    const stored = await this.store.getSession(sessionKey);
    if (!stored) return undefined;
    const { createdBy, agentId } = this.resolve(stored);
    const access = { createdBy, agentId };
    this.access.set(sessionKey, access);
    return access;
  };

  /** What accessOf found before (a fan-out reads it ahead: prepareView), without waiting. */
  private readonly cachedAccess = (sessionKey: string): SessionLike | undefined => this.access.get(sessionKey);

  readonly ownerOf = async (sessionKey: string): Promise<string | undefined> => (await this.accessOf(sessionKey))?.createdBy;

  /** A session as stored, with its agent resolved (A6). */
  async getSession(sessionKey: string): Promise<Session | undefined> {
    const stored = await this.store.getSession(sessionKey);
    return stored && this.resolve(stored);
  }

  /** Counts as the store does: pending and not retired (Q10), here only those this identity may see. */
  async countVisiblePending(identity: Identity, sessionKey: string): Promise<number> {
    const owner = await this.ownerOf(sessionKey);
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
    const readable = stored.map((s) => movedTo(this.resolve(s), latest.get(s.key))).filter((s) => canReadSession(identity, s));
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

  /**
   * A4/A6: a session this identity may not read answers SESSION_NOT_FOUND, as if it did not exist.
   * Only key, creator and agent, from the access cache: checking access costs no query on the request path.
   */
  async readableSession(identity: Identity, sessionKey: string): Promise<SessionLike & { key: string }> {
    const access = await this.accessOf(sessionKey);
    if (!access || !canReadSession(identity, access))
      throw new AskdockError('SESSION_NOT_FOUND', `no session "${sessionKey}"`, { details: { sessionKey } });
    return { key: sessionKey, ...access };
  }

  /** Pending questions per session, read ahead for the `session.updated` events of one fan-out (prepareView). */
  private pendingAhead = new Map<string, StoredQuestion[]>();
  /** A3: the newest privileged reply per session and asker, for the `session.updated` of those who may read it. */
  private readonly privilegedActivity = new PrivilegedActivity();

  /** Reads what `view` needs of these events (sessions' access, pending questions), so the fan-out never waits. */
  readonly prepareView = async (events: StoredEvent[]): Promise<void> => {
    // Every fan-out (own, another gateway's, a replay) passes here first: the replies' times are known before any view.
    this.privilegedActivity.noteEvents(events);
    const pending = new Map<string, StoredQuestion[]>();
    const reads: Promise<unknown>[] = [];
    const asked = new Set<string>();
    // Counts per viewer are needed only where a connected viewer does not see every question (A3).
    const counted = this.hub.anyViewer((viewer) => !seesEveryQuestion(viewer.identity));
    // All at once: on a network database each read is a round trip, and they do not depend on each other.
    for (const ev of events) {
      const key = ev.audience.sessionKey;
      if (key === null) continue;
      if (!this.access.has(key) && !asked.has(key)) {
        asked.add(key);
        reads.push(this.accessOf(key));
      }
      if (counted && ev.event === 'session.updated' && !ev.audience.pending && !pending.has(key)) {
        pending.set(key, []);
        reads.push(this.store.listQuestions({ sessionKey: key, status: 'pending' }).then((qs) => pending.set(key, qs)));
      }
    }
    await Promise.all(reads);
    this.pendingAhead = pending;
  };

  /** `question`: the change is that question's (its count): only the session's readers who may see it hear of it (A3/A4). */
  async emitSessionUpdated(tx: Tx, sessionKey: string, question?: QuestionLike): Promise<void> {
    await this.emitSessionAs(tx, sessionKey, await this.getSession(sessionKey), question);
  }

  /**
   * `emitSessionUpdated` with the session already read, e.g. together with the change that moved its count: a read
   * sent right after a write in the same unit sees it (statements run in the order sent), and on a network database
   * both leave in one round trip.
   */
  async emitSessionAs(tx: Tx, sessionKey: string, session: Session | undefined, question?: QuestionLike, pending?: StoredQuestion[]): Promise<void> {
    const only = question && { askedBy: question.askedBy, privileged: question.privileged === true };
    if (!session) return;
    const open = pending && pending.length <= PENDING_IN_AUDIENCE ? pending.filter((q) => q.retiredAtMs === undefined) : undefined;
    await tx.emit(
      'session.updated',
      { session },
      {
        sessionKey,
        ...(only ? { questionViewersOnly: only } : {}),
        ...(open ? { pending: open.map((q) => (q.privileged ? { askedBy: q.askedBy, privileged: true as const } : { askedBy: q.askedBy })) } : {}),
      },
    );
  }

  /**
   * On a shared database, the pending questions to read together with a session's new count (emitSessionAs), so each
   * gateway's fan-out of the event needs no read of its own; elsewhere none (the fan-out reads them, in process).
   */
  pendingWith(sessionKey: string | undefined): Promise<StoredQuestion[]> | undefined {
    return sessionKey !== undefined && this.store.shared ? this.store.listQuestions({ sessionKey, status: 'pending' }) : undefined;
  }

  /**
   * C3 as this identity reads it (A3): replies to privileged questions it may not see are left out as if never sent,
   * the page is filled from older messages instead and `hasMore` counts only what it may read.
   */
  async historyFor(identity: Identity, sessionKey: string, limit: number, before?: string): Promise<{ messages: ChatMessage[]; hasMore: boolean }> {
    const hidden = await this.hiddenReplies(identity, sessionKey);
    if (hidden.size === 0) return await this.store.history(sessionKey, limit, before);
    const shown = (m: ChatMessage) => m.replyTo === undefined || !hidden.has(m.replyTo.questionId);
    let kept: ChatMessage[] = [];
    for (let cursor = before; ; ) {
      const page = await this.store.history(sessionKey, limit, cursor);
      kept = [...page.messages.filter(shown), ...kept];
      if (kept.length > limit || !page.hasMore || page.messages.length === 0) break;
      cursor = page.messages[0].id;
    }
    return { messages: kept.slice(-limit), hasMore: kept.length > limit };
  }

  /** A3: the privileged questions of a session whose replies this identity may not read (whoever created the session). */
  private async hiddenReplies(identity: Identity, sessionKey: string): Promise<Set<string>> {
    if (seesEveryQuestion(identity)) return new Set();
    const ids = (await this.store.listQuestions({ sessionKey }))
      .filter((q) => q.privileged === true && !canSeeQuestion(identity, q, undefined))
      .map((q) => q.id);
    return new Set(ids);
  }

  /**
   * Saves a new message with its `chat` event; the message's `seq` is the seq of that event,
   * so it must be the first event of its transaction. A privileged reply (A3) goes only to those who may see its
   * question, as does the session.updated it moves; its other readers know the session as before (no lastMessageAtMs,
   * no session.updated).
   */
  async appendMessage(tx: Tx, m: NewMessage): Promise<ChatMessage> {
    const now = this.stamps.messageCreated();
    // On a shared database the seq is provisional until commit (D2), as is its event's, renumbered together: taken now
    // for this message, so the events other lanes hold during the writes below cannot take it first.
    const seq = this.store.reserveSeq?.() ?? (await this.store.latestSeq()) + 1;
    const message: ChatMessage = {
      id: newId('m'),
      sessionKey: m.sessionKey,
      role: m.role,
      text: m.text,
      authorId: m.authorId,
      ...(m.runId !== undefined ? { runId: m.runId } : {}),
      ...(m.replyTo !== undefined ? { replyTo: m.replyTo } : {}),
      createdAtMs: now,
      seq,
    };
    await this.store.insertMessage(message);
    const asker = m.privilegedReplyOf;
    const privileged = asker !== undefined;
    if (!privileged) await this.store.touchSession(m.sessionKey, now);
    const got = await tx.emit(
      'chat',
      { sessionKey: m.sessionKey, ...(m.runId !== undefined ? { runId: m.runId } : {}), message, state: m.state },
      { sessionKey: m.sessionKey, ...(privileged ? { questionViewersOnly: { askedBy: asker, privileged: true } } : {}) },
    );
    if (got !== seq) throw new Error(`message seq ${seq} does not match its event seq ${got}`);
    if (!privileged) await this.emitSessionUpdated(tx, m.sessionKey);
    // A3: only those who may read the reply hear the session moved by it (the stored session never moves).
    else await this.emitSessionAs(tx, m.sessionKey, await this.getSession(m.sessionKey).then((s) => s && movedTo(s, now)), { askedBy: asker, privileged: true });
    return message;
  }

  /**
   * Visibility first (A4), then a per-viewer session count where the viewer may not see every question. In one fan-out
   * it is decided once per identity where the identity alone decides (viewDependsOnIdentityOnly): many tabs of one
   * operator cost one decision and share one frame.
   */
  private readonly view: EventView = (viewer, ev, shared, decided) => {
    if (!decided) return this.viewFor(viewer, ev, shared);
    // Only identities whose view is theirs alone are kept, so a kept decision is looked up before that is asked.
    const known = decided.get(viewer.identity);
    if (known !== undefined) return known;
    if (!viewDependsOnIdentityOnly(viewer.identity)) return this.viewFor(viewer, ev, shared);
    const out = this.viewFor(viewer, ev, shared);
    decided.set(viewer.identity, out);
    return out;
  };

  /** An event's pending questions as its audience tells them, in their session (visibility depends on it), made once. */
  private readonly told = new WeakMap<StoredEvent, QuestionLike[]>();
  private pendingTold(ev: StoredEvent, pending: NonNullable<EventAudience['pending']>): QuestionLike[] {
    let list = this.told.get(ev);
    if (!list) this.told.set(ev, (list = pending.map((q) => ({ sessionKey: ev.audience.sessionKey, askedBy: q.askedBy, privileged: q.privileged === true }))));
    return list;
  }

  private viewFor(viewer: Viewer, ev: StoredEvent, shared: () => WireFrame): WireFrame | null {
    if (!canSeeEvent(viewer, ev.audience, this.cachedAccess)) return null;
    if (ev.event !== 'session.updated') return shared();
    // The stored session carries no presence (it is live, U18): each view adds the current one.
    const { session } = ev.payload as { session: Session };
    const owner = this.cachedAccess(session.key)?.createdBy;
    const pending = ev.audience.pending ? this.pendingTold(ev, ev.audience.pending) : (this.pendingAhead.get(session.key) ?? []);
    const moved = movedTo(session, this.privilegedActivity.readBy(viewer.identity, session.key));
    const counted = seesEveryQuestion(viewer.identity) ? moved : sessionFor(viewer.identity, moved, () => countVisible(viewer.identity, pending, owner));
    const payload = { session: this.withPresence(counted) };
    return textFrame(JSON.stringify({ type: 'event', event: ev.event, payload, seq: ev.seq }));
  }
}

/** How many pending questions a session.updated event may carry in its audience (more: the fan-out reads them). */
const PENDING_IN_AUDIENCE = 100;

/** Pending, not retired questions of one session that this identity may see. */
function countVisible(identity: Identity, pending: (QuestionLike & { retiredAtMs?: number })[], owner: string | undefined): number {
  return pending.filter((q) => q.retiredAtMs === undefined && canSeeQuestion(identity, q, owner)).length;
}
