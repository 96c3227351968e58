import type { ChatMessage, Session } from '../protocol/index.ts';
import type { GatewayLog } from './infra/logger.ts';
import type { Authenticator, Identity } from './auth.ts';
import type { Clock, TimerHandle } from './infra/clock.ts';
import { AgentPresenceTracker } from './sessions/agent-presence.ts';
import { OrderStamps } from './runs/order-stamps.ts';
import { EventHub, type Tx } from './hub/hub.ts';
import { newId } from './infra/ids.ts';
import { Duties } from './infra/duties.ts';
import { QuestionManager } from './questions/questions.ts';
import { RunService } from './runs/runs.ts';
import { onRunEnded } from './questions/question-runs.ts';
import type { RoomParts } from './sessions/room-parts.ts';
import { isSharedStore, type SharedStore } from './store/postgres/store.ts';
import { SecretBox } from './secrets/secret-box.ts';
import { SecretManager } from './secrets/secrets.ts';
import { PushService, type PushOptions } from './push/push-service.ts';
import type { Store, StoredEvent, StoredQuestion } from './store/types.ts';
import { AgentSubscriptions } from './sessions/subscriptions.ts';
import type { Turn } from './hub/turn.ts';
import { canSeeEvent, viewDependsOnIdentityOnly, type QuestionLike, type SessionLike } from './sessions/visibility.ts';
import { SessionAccess } from './sessions/session-access.ts';
import { SessionViews } from './sessions/session-views.ts';
import { Messages, type NewMessage } from './sessions/messages.ts';
import { PolicyRoom } from './policy/policy-room.ts';
import { PolicySource } from './policy/policy-source.ts';
import { emptyRouting, type RoutingConfig } from '../routing/index.ts';
import { RoutingRoom } from './routing/routing-room.ts';
import { AuditRoom } from './audit/audit-room.ts';
import { recordNotified } from './audit/route-entries.ts';
import type { DatedKey } from '../audit/index.ts';

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
  /** G1: the approval policy in force (default: no rules, every approval asks). */
  approvals?: PolicySource;
  /** E1: the routing config (default: no routes, nothing is routed). */
  routing?: RoutingConfig;
  /** L3/L8: the audit log's signing keys (null: unsigned) and its origin (the checkpoints' first line). */
  audit?: { keys: DatedKey[] | null; origin: string };
};

/** Everything a handler needs, wired once per gateway. */
export class Core {
  readonly hub: EventHub;
  readonly subscriptions: AgentSubscriptions;
  readonly questions: QuestionManager;
  readonly runs: RunService;
  /** Who each session belongs to (A4/A6), cached. */
  readonly access: SessionAccess;
  /** Sessions as each identity sees them: listings, and each fan-out's view of an event. */
  readonly views: SessionViews;
  /** A session's messages and the session.updated its changes send. */
  readonly messages: Messages;
  readonly log: GatewayLog;
  readonly ownerOf: SessionAccess['ownerOf'];
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
  /** G: approvals decided by the policy, grants, and the policy's admin view. */
  readonly policy: PolicyRoom;
  /** E: routes, escalation, acknowledgements, hand-offs and quorums. */
  readonly routing: RoutingRoom;
  /** L1-L8: the audit log, its checkpoints, receipts' keys and exports. */
  readonly audit: AuditRoom;

  constructor(
    readonly store: Store,
    readonly clock: Clock,
    readonly auth: Authenticator,
    readonly opts: CoreOptions,
  ) {
    this.log = opts.log;
    this.cluster = isSharedStore(store) ? store : null;
    this.access = new SessionAccess(store, auth.defaultAgentId);
    this.ownerOf = this.access.ownerOf;
    this.presence = new AgentPresenceTracker(clock, (change) => {
      this.announcePresence(change).catch((err: unknown) => opts.log.error({ err }, 'announcing presence failed'));
    });
    this.views = new SessionViews(store, this.access, this.presence, (pred) => this.hub.anyViewer(pred));
    this.hub = new EventHub({
      store,
      clock,
      view: this.views.view,
      checkPayloads: opts.checkFrames,
      log: opts.log,
      turn: opts.turn,
      onRollback: () => {
        this.access.clear();
        // L2/L7: audit lines read inside the undone group are not the log's.
        this.audit?.log.forgetRead();
      },
      shareKey: (viewer) => (viewDependsOnIdentityOnly(viewer.identity) ? viewer.identity : null),
      prepare: this.views.prepare,
    });
    this.stamps = new OrderStamps(clock);
    this.messages = new Messages(store, this.access, this.stamps);
    this.subscriptions = new AgentSubscriptions(store);
    this.questions = new QuestionManager(this, opts.requesterGraceMs);
    const parts: RoomParts = { store, hub: this.hub, access: this.access, clock, log: opts.log };
    this.secrets = new SecretManager({ ...parts, auth }, opts.secretBox ?? SecretBox.ephemeral());
    const secrets = this.secrets;
    this.runs = new RunService({ ...parts, messages: this.messages, stamps: this.stamps, questionsEnded: (tx, ended, phase) => onRunEnded(this, tx, ended, phase), secrets });
    this.push = new PushService({ ...parts, auth }, opts.push);
    const source = opts.approvals ?? PolicySource.none(clock, opts.log);
    this.audit = new AuditRoom({ ...parts, keys: opts.audit?.keys ?? null, origin: opts.audit?.origin ?? 'askdock.local/audit', duties: () => this.duties });
    this.push.onNotified = (q, identities) => this.hub.commit(() => recordNotified(this.audit, q, { surface: 'push', identities }));
    this.policy = new PolicyRoom({ ...parts, source, questions: this.questions, messages: this.messages, stamps: this.stamps, audit: this.audit, auth });
    this.questions.approvals = this.policy;
    this.routing = new RoutingRoom({
      ...parts,
      routing: opts.routing ?? emptyRouting(),
      auth,
      questions: this.questions,
      secrets: this.secrets,
      dutyHeld: () => !this.duties || this.duties.held,
      audit: this.audit,
    });
    this.questions.routing = this.routing;
    this.secrets.routing = this.routing;
    this.duties = this.cluster
      ? new Duties(this.cluster, clock, this.gatewayId, (justTaken) => this.runDuties(justTaken), opts.log)
      : null;
    this.hub.onHeard((ev) => {
      this.questions.heard(ev.event, ev.payload).catch((err: unknown) => opts.log.error({ err }, 'hearing an event failed'));
      this.secrets.heard(ev.event, ev.payload);
      this.routing.heard(ev.event, ev.payload);
    });
    this.hub.listenAll((ev) => this.runPresence(ev));
  }

  /** D3: the duty holder's turn: questions' expiry and absent askers, and escalation steps right after a takeover. */
  private async runDuties(justTaken: boolean): Promise<void> {
    if (justTaken) this.routing.duty.sweepNow();
    await this.questions.runDuties(justTaken);
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
      const access = await this.access.accessOf(sessionKey);
      const agentPresence = access && this.presence.ofSession(sessionKey, access.agentId);
      if (!agentPresence) continue;
      this.hub.sendLive('session.presence', { sessionKey, agentPresence }, (viewer) => canSeeEvent(viewer, { sessionKey }, this.access.cached));
    }
  }

  async start(): Promise<void> {
    await this.hub.start();
    // Replies sent since are noted as their events go out (SessionViews.prepare); a reply noted twice changes nothing.
    await this.views.start();
    await this.subscriptions.load();
    for (const run of await this.store.activeRuns()) if (run.sessionKey !== null) this.presence.runStarted(run.sessionKey, run.runId, run.startedAtMs);
    await this.questions.start();
    this.secrets.start();
    this.push.start();
    this.policy.start();
    this.routing.start();
    await this.audit.start();
    await this.policy.recordStart();
    this.duties?.start();
    void this.prune();
  }

  /** Commits what the current turn wrote, so the store can be closed right after. */
  async stop(): Promise<void> {
    this.questions.stop();
    this.secrets.stop();
    this.push.stop();
    this.policy.stop();
    this.routing.stop();
    this.audit.stop();
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
      this.log.error({ err }, 'pruning events failed');
    }
    this.pruneTimer = this.clock.setTimeout(() => void this.prune(), PRUNE_EVERY_MS);
  }

  /** A6: sessions stored before binding belong to the default agent. */
  resolve(session: Session): Session {
    return this.access.resolve(session);
  }

  // What the rooms still reach through the Core; each goes once the room is built with the part itself.
  getSession(sessionKey: string): Promise<Session | undefined> {
    return this.access.getSession(sessionKey);
  }

  readableSession(identity: Identity, sessionKey: string): Promise<SessionLike & { key: string }> {
    return this.access.readableSession(identity, sessionKey);
  }

  sessionFor(identity: Identity, session: Session): Promise<Session> {
    return this.views.sessionFor(identity, session);
  }

  visibleSessions(identity: Identity): Promise<Session[]> {
    return this.views.visibleSessions(identity);
  }

  emitSessionUpdated(tx: Tx, sessionKey: string, question?: QuestionLike): Promise<void> {
    return this.messages.emitSessionUpdated(tx, sessionKey, question);
  }

  emitSessionAs(tx: Tx, sessionKey: string, session: Session | undefined, question?: QuestionLike, pending?: StoredQuestion[]): Promise<void> {
    return this.messages.emitSessionAs(tx, sessionKey, session, question, pending);
  }

  pendingWith(sessionKey: string | undefined): Promise<StoredQuestion[]> | undefined {
    return this.messages.pendingWith(sessionKey);
  }

  historyFor(identity: Identity, sessionKey: string, limit: number, before?: string): Promise<{ messages: ChatMessage[]; hasMore: boolean }> {
    return this.messages.historyFor(identity, sessionKey, limit, before);
  }

  appendMessage(tx: Tx, m: NewMessage): Promise<ChatMessage> {
    return this.messages.appendMessage(tx, m);
  }

  emitMovedBy(tx: Tx, message: ChatMessage, privilegedReplyOf: string | undefined): Promise<void> {
    return this.messages.emitMovedBy(tx, message, privilegedReplyOf);
  }
}
