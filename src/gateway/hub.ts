import { AsyncLocalStorage } from 'node:async_hooks';
import { events, type EventName, type EventPayload } from '../protocol/index.ts';
import type { GatewayLog } from './infra/logger.ts';
import type { Clock } from './infra/clock.ts';
import type { SharedStore } from './store/postgres/cluster.ts';
import { isSharedStore } from './store/postgres/store.ts';
import { toJson } from './store/shape.ts';
import type { EventAudience, Store, StoredEvent } from './store/types.ts';
import type { Turn } from './net/turn.ts';
import type { Viewer } from './sessions/visibility.ts';
import { textFrame, type WireFrame } from './net/wire.ts';
import { sharedFrame } from './net/event-frame.ts';
import { Listeners } from '../lib/listeners.ts';

/** A connection as the hub sees it: who looks, and where its frames go. */
export interface Subscriber {
  readonly viewer: Viewer;
  send(out: string | WireFrame): void;
}

/**
 * Inside a commit: emit stores the event in the same transaction (`payloadJson`: the payload already as JSON, when the
 * caller made it for something else too); `after` runs once it is durable.
 */
export type Tx = {
  emit<E extends EventName>(event: E, payload: EventPayload<E>, audience: EventAudience, payloadJson?: string): Promise<number>;
  after(fn: () => void): void;
};

/**
 * Decides per viewer whether an event is sent and as what; `shared` is the common frame, built once per event.
 * `decided` lives for one fan-out of one event (absent in a replay): where the view may reuse a decision it made for
 * another viewer of that fan-out, it keeps it there.
 */
export type EventView = (viewer: Viewer, ev: StoredEvent, shared: () => WireFrame, decided?: Map<object, string | WireFrame | null>) => string | WireFrame | null;


/** `texts[i]`: the payload JSON of `events[i]` as stored, which its frame is built around. */
type Changes = { events: StoredEvent[]; texts: string[]; after: (() => void)[] };
const noChanges = (): Changes => ({ events: [], texts: [], after: [] });
/** A turn's group: its commits' changes, what waits to learn whether they were kept, and (once known) whether they were. */
type Group = Changes & { waiting: ((committed: boolean) => void)[]; outcome?: boolean };

/**
 * One request's units of work. On a shared database each lane commits on its own, so a request's answer waits for the
 * groups its own units joined (every other read of it saw only what was committed), not for every lane's.
 */
export class RequestScope {
  /** @internal the groups this request's units joined */
  readonly groups = new Set<Group>();
  /**
   * Set once its handler settled: what runs later in its async context (a timer it armed, an after-hook) is no part of
   * it, so joins nothing here and reads as code outside any request does.
   */
  answered = false;
  /** Settles once its handler settled: by then every unit it asked for has joined its group. */
  readonly handled: Promise<void>;
  private settle: () => void = () => {};

  constructor() {
    this.handled = new Promise<void>((ok) => (this.settle = ok));
  }

  /** Its handler settled (the request is being answered). */
  finish(): void {
    this.answered = true;
    this.settle();
  }
}
type LaneStore = Pick<Store, 'transaction' | 'beginGroup' | 'commitGroup' | 'rollbackGroup'>;
/**
 * Units of work run one at a time per lane, each lane with its own group (transaction). One lane with SQLite and
 * memory; on a shared database several run side by side (SharedStore.lanes), a unit's lane chosen by its key (its
 * session), so the units of one session keep their order.
 */
type Lane = { store: LaneStore; queue: Promise<unknown>; grouped: Group | null; open: Changes | null; tx: Tx };
const settled = () => {};
/** PostgreSQL's SQLSTATE for a statement it failed to break a deadlock. */
const DEADLOCK = '40P01';
/** How long a gap before events known here waits for the notification that fills it before it is read (hub, shared database). */
const GAP_READ_MS = 2_000;

/** A key's lane: the same key, the same lane. */
export function laneOf(key: string, lanes: number): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
  return (h >>> 0) % lanes;
}

/**
 * R1: every state-changing event is appended inside the store transaction of the change,
 * and fanned out only after that transaction committed.
 * Group commit: the commits of one event-loop turn join one store transaction, made durable when the turn ends
 * (Turn). Their events, their after-hooks and every answer that may reflect them (`whenDurable`) wait for it (R3).
 */
export class EventHub {
  /** Each subscriber with the newest seq it already has (from its snapshot or replay): older events are not sent again. */
  private readonly subscribers = new Map<Subscriber, number>();
  /** In-process listeners: every event this gateway committed, unfiltered; each decides what it may use. */
  private readonly listeners = new Listeners<[StoredEvent]>();
  /** In-process listeners of every committed event, this gateway's and (shared database) the others' (the channels). */
  private readonly allListeners = new Listeners<[StoredEvent]>();
  /**
   * Per lane, units of work (commits), a group's commit and its fan-out run one at a time, in the order they were asked
   * for: the commits that arrive while a group commits go into the next group together.
   */
  private readonly lanes: Lane[];
  /** The request whose handler runs now (shared database). */
  private readonly scopes = new AsyncLocalStorage<RequestScope>();
  /** Reading and sending committed events (shared database): one catch-up at a time, in seq order. */
  private fanQueue: Promise<unknown> = Promise.resolve();
  /**
   * D2, on a database several gateways share: the newest seq fanned out here. Events then go out from the database in
   * seq order, this gateway's and the others' alike, so a client's cursor never passes an event it did not get.
   */
  private fanned = 0;
  /** Shared database: the newest of this gateway's own events taken to go out (being prepared), else 0. */
  private goingOut = 0;
  private readonly shared: boolean;
  /**
   * Shared database: this gateway's committed events not fanned out yet, by seq. When no other seq lies between them and
   * the newest one fanned out, they go out as they are, without reading them back (their payload JSON as stored).
   */
  private readonly ownCommitted = new Map<number, { ev: StoredEvent; text: string | undefined }>();
  /** Shared database: another gateway committed (or a notification may have been missed), so a catch-up reads the database. */
  private mustRead = false;
  /** Shared database: per group whose commit is on the way, settles once its events are known (in `ownCommitted`). */
  private readonly commitsOnTheWay = new Set<Promise<void>>();
  /** Shared database: `fanned` holds where this gateway began (start), so notifications count from there. */
  private started = false;
  private catchUpQueued = false;
  private gapTimer: NodeJS.Timeout | null = null;
  /** A catch-up is queued and not started yet: whoever asks for one now is served by it. */
  private catchUpWaiting = false;
  /**
   * What waits for a catch-up that starts after it was asked for (a committed group's listeners, hooks, answers), and
   * for its group's events (`seqs`) to have gone out: one held back behind a gap waits for a later catch-up.
   */
  private afterCatchUp: { fn: () => void; seqs?: number[] }[] = [];
  private unlisten: (() => void) | null = null;
  /** Hears every event fanned out from a shared database, e.g. to wake waiters for a question resolved elsewhere. */
  private heard: (ev: StoredEvent) => void = () => {};

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly view: EventView,
    private readonly checkPayloads: boolean,
    private readonly log: GatewayLog,
    private readonly turn: Turn,
    /** After a group rolled back: caches filled from its writes must forget them. */
    private readonly onRollback: () => void,
    /** The key under which viewers see every event alike (for one whose identity alone decides, the identity), or null. */
    private readonly shareKey: (viewer: Viewer) => object | null = () => null,
    /** Reads (ahead of a fan-out or replay) what `view` will need of these events, so the view itself never waits. */
    private readonly prepare: (events: StoredEvent[]) => Promise<void> = async () => {},
  ) {
    turn.onSettle(() => this.settle());
    this.shared = isSharedStore(store);
    const laneStores: LaneStore[] = isSharedStore(store) ? Array.from({ length: store.lanes }, (_, i) => store.lane(i)) : [store];
    this.lanes = laneStores.map((laneStore) => {
      const lane: Lane = { store: laneStore, queue: Promise.resolve(), grouped: null, open: null, tx: null as unknown as Tx };
      lane.tx = this.txOf(lane);
      return lane;
    });
    if (isSharedStore(store)) {
      // null: LISTEN reconnected and may have missed notifications, so read what is new anyway.
      const noticed = (seq: number | null) => {
        // A commit's notification tells its last seq; this gateway's own are fanned out from its settled groups.
        if (seq !== null && (seq <= this.fanned || seq <= this.goingOut || this.ownCommitted.has(seq))) return;
        this.mustRead = true;
        this.queueCatchUp();
      };
      this.unlisten = store.onCommitted((seq, told) => {
        // Before start() has read where to begin, nothing is fanned out (start reads once it knows).
        if (!this.started) return;
        if (told) {
          // The notification carries the commit's events: they go out from it, in seq order, like this gateway's own.
          // Notifications are sent after their commits' flushes, so they may arrive out of seq order: a seq not heard
          // yet is waited for, then read (queueCatchUp).
          for (const ev of told) if (ev.seq > this.fanned && ev.seq > this.goingOut && !this.ownCommitted.has(ev.seq)) this.ownCommitted.set(ev.seq, { ev, text: undefined });
          return this.queueCatchUp();
        }
        // The notification of a commit of this gateway's own may arrive before the commit's answer does: decided once the
        // commits on the way now have returned, it costs no read when it was one of them.
        if (seq === null || this.commitsOnTheWay.size === 0) return noticed(seq);
        void Promise.all(this.commitsOnTheWay).then(() => noticed(seq));
      });
    }
  }

  /** Before the first commit (shared store): events committed before this gateway started are not fanned out again. */
  async start(): Promise<void> {
    if (!this.shared) return;
    this.fanned = await this.store.latestSeq();
    this.started = true;
    // What committed while that read was on the way was told before this gateway counted from it.
    this.mustRead = true;
    await new Promise<void>((ok) => this.requestCatchUp(ok));
  }

  /**
   * Runs `fn` with nothing uncommitted (the open group settled first) and no fan-out meanwhile: a snapshot, a replay
   * and the subscriber's `add` inside it see every event either in what they read or in a later fan-out, never both.
   */
  quiet<T>(fn: () => Promise<T> | T): Promise<T> {
    return this.exclusive(async () => {
      for (const lane of this.lanes) if (lane.grouped) await this.settleGroup(lane);
      return fn();
    });
  }

  /** Runs `fn` after every unit of work (of every lane) and fan-out asked for before it, and before those asked for after it. */
  exclusive<T>(fn: () => Promise<T> | T): Promise<T> {
    const before = [...this.lanes.map((lane) => lane.queue), this.fanQueue];
    const run = Promise.allSettled(before).then(fn);
    const done = run.then(settled, settled);
    for (const lane of this.lanes) lane.queue = done;
    this.fanQueue = done;
    return run;
  }

  /** True when units run in several lanes, so their key (commit's `key`) matters. */
  get laned(): boolean {
    return this.lanes.length > 1;
  }

  /** Runs `fn` after the units asked for before it in this lane. */
  private inLane<T>(lane: Lane, fn: () => Promise<T> | T): Promise<T> {
    const run = lane.queue.then(fn, fn);
    lane.queue = run.then(settled, settled);
    return run;
  }

  /** Runs a catch-up (reading committed events and sending them) after the ones asked for before it. */
  private fanning<T>(fn: () => Promise<T> | T): Promise<T> {
    const run = this.fanQueue.then(fn, fn);
    this.fanQueue = run.then(settled, settled);
    return run;
  }

  onHeard(fn: (ev: StoredEvent) => void): void {
    this.heard = fn;
  }

  /** Stops hearing other gateways' commits (shutdown). */
  stopListening(): void {
    this.unlisten?.();
    this.unlisten = null;
    if (this.gapTimer) clearTimeout(this.gapTimer);
    this.gapTimer = null;
  }

  private queueCatchUp(): void {
    if (this.catchUpQueued) return;
    this.catchUpQueued = true;
    setImmediate(() => {
      this.catchUpQueued = false;
      this.requestCatchUp();
    });
  }

  /**
   * One catch-up serves everyone who asked before it started: with many commits a second, each does not wait for a
   * read of its own behind the others' (then `then` runs, its events sent).
   */
  private requestCatchUp(then?: () => void, seqs?: number[]): void {
    if (then) this.afterCatchUp.push({ fn: then, seqs });
    if (this.catchUpWaiting) return;
    this.catchUpWaiting = true;
    void this.fanning(async () => {
      this.catchUpWaiting = false;
      const waiting = this.afterCatchUp;
      this.afterCatchUp = [];
      await this.catchUp();
      const later: typeof waiting = [];
      for (const w of waiting) {
        if (w.seqs?.some((seq) => seq > this.fanned && this.ownCommitted.has(seq))) later.push(w);
        else w.fn();
      }
      // Their events wait behind a commit of this gateway still on the way, whose end asks for the next catch-up.
      this.afterCatchUp.unshift(...later);
    });
  }

  /** Fans out, oldest first, every committed event after the newest one already fanned out (shared store). */
  private async catchUp(pageSize = 1000): Promise<void> {
    // Committed events, and what their views need, as committed: no wait for this gateway's open groups.
    if (isSharedStore(this.store)) return this.store.readCommitted(() => this.catchUpNow(pageSize));
    return this.catchUpNow(pageSize);
  }

  private async catchUpNow(pageSize: number): Promise<void> {
    try {
      for (;;) {
        // D2: a commit returns once every lower seq is committed (seqs are handed out as transactions commit), so this
        // gateway's own events next in line need no read; a gap (another gateway's commit, a hole) is read.
        const own = this.ownNext();
        if (own.length > 0) {
          this.goingOut = own[own.length - 1].ev.seq;
          try {
            await this.prepare(own.map((o) => o.ev));
          } finally {
            this.goingOut = 0;
          }
          for (const o of own) this.deliver(o.ev, o.text);
          // Any put back meanwhile (an own commit's answer after its notification told its events) already went out.
          for (const seq of this.ownCommitted.keys()) if (seq <= this.fanned) this.ownCommitted.delete(seq);
          continue;
        }
        // A gap before the events known here is a commit of this gateway's own still on the way (its end asks again), or
        // another gateway's whose notification is on its way (every commit sends one, heard in commit order; a LISTEN
        // that reconnected asks for a read). Should none fill it, it is read after a while.
        if (!this.mustRead) {
          if (this.ownCommitted.size > 0) this.readGapLater();
          return;
        }
        this.mustRead = false;
        const page = await this.store.eventsAfter(this.fanned, pageSize);
        await this.prepare(page);
        for (const ev of page) this.deliver(ev, undefined);
        for (const seq of this.ownCommitted.keys()) if (seq <= this.fanned) this.ownCommitted.delete(seq);
        if (page.length === pageSize) this.mustRead = true;
        else if (this.ownCommitted.size > 0 && !this.ownCommitted.has(this.fanned + 1)) return;
      }
    } catch (err) {
      this.log.error({ err }, 'reading committed events failed, trying again');
      setTimeout(() => {
        this.mustRead = true;
        this.queueCatchUp();
      }, 500).unref();
    }
  }

  /** Reads the gap before the events known here if it is still open in GAP_READ_MS (no notification filled it). */
  private readGapLater(): void {
    if (this.gapTimer) return;
    const fanned = this.fanned;
    this.gapTimer = setTimeout(() => {
      this.gapTimer = null;
      if (this.ownCommitted.size === 0) return;
      // Still the same gap: read it; else the gap now (if any) gets its own while.
      if (this.fanned === fanned) this.mustRead = true;
      this.queueCatchUp();
    }, GAP_READ_MS);
    this.gapTimer.unref();
  }

  /** This gateway's own committed events that follow the newest one fanned out without a gap, taken from `ownCommitted`. */
  private ownNext(): { ev: StoredEvent; text: string | undefined }[] {
    const run: { ev: StoredEvent; text: string | undefined }[] = [];
    for (let seq = this.fanned + 1, next = this.ownCommitted.get(seq); next; next = this.ownCommitted.get(++seq)) {
      this.ownCommitted.delete(seq);
      run.push(next);
    }
    return run;
  }

  /** Sends one committed event (in seq order) and lets this gateway's listeners of every event hear it. */
  private deliver(ev: StoredEvent, text: string | undefined): void {
    this.fanned = ev.seq;
    this.fanOut([ev], text === undefined ? undefined : [text]);
    this.runHook('hearing an event', () => this.heard(ev));
    this.allListeners.each((fn) => this.runHook('event listener', () => fn(ev)));
  }

  /** `seenSeq`: the newest seq its hello-ok snapshot or replay covered; it gets only later events. */
  add(sub: Subscriber, seenSeq: number): void {
    this.subscribers.set(sub, seenSeq);
  }

  /** Calls `fn` with every event once it is committed; returns the unsubscribe. */
  listen(fn: (ev: StoredEvent) => void): () => void {
    return this.listeners.add(fn);
  }

  /** Calls `fn` with every committed event, from any gateway of a shared database; returns the unsubscribe. */
  listenAll(fn: (ev: StoredEvent) => void): () => void {
    return this.allListeners.add(fn);
  }

  /** A live event without a seq (never stored or replayed: the snapshot carries the state), to the viewers `may` allows. */
  sendLive<E extends EventName>(event: E, payload: EventPayload<E>, may: (viewer: Viewer) => boolean): void {
    let frame: WireFrame | undefined;
    for (const sub of this.subscribers.keys()) {
      if (!may(sub.viewer)) continue;
      frame ??= textFrame(JSON.stringify({ type: 'event', event, payload }));
      sub.send(frame);
    }
  }

  /** Whether some connection's viewer is `pred`'s. */
  anyViewer(pred: (viewer: Viewer) => boolean): boolean {
    for (const sub of this.subscribers.keys()) if (pred(sub.viewer)) return true;
    return false;
  }

  remove(sub: Subscriber): void {
    this.subscribers.delete(sub);
  }

  get size(): number {
    return this.subscribers.size;
  }

  /**
   * Runs `fn` as one unit of work: a nested transaction of the current group, so if it throws, only its own writes and
   * events are undone. Units run one at a time (`fn` gets the store to itself until its promise settles); one that
   * starts while a group commits joins the next group. Its events go out, and its after-hooks run, once its group is
   * durable. A unit must not ask for another unit (it would wait for itself): pass `tx` down instead. `key` (the
   * session the unit changes) picks its lane where there are several: one session's units keep their order.
   */
  commit<T>(fn: (tx: Tx) => Promise<T> | T, key?: string | null, retried = false): Promise<T> {
    const lane = this.lanes.length === 1 || !key ? this.lanes[0] : this.lanes[laneOf(key, this.lanes.length)];
    const run = this.inLane(lane, async () => {
      if (!lane.grouped) {
        await lane.store.beginGroup();
        lane.grouped = { ...noChanges(), waiting: [] };
        this.turn.touch();
      }
      const grouped = lane.grouped;
      const scope = this.scopes.getStore();
      if (scope && !scope.answered) scope.groups.add(grouped);
      const open = noChanges();
      lane.open = open;
      let result: T;
      try {
        result = await lane.store.transaction(() => fn(lane.tx));
      } finally {
        lane.open = null;
      }
      grouped.events.push(...open.events);
      grouped.texts.push(...open.texts);
      grouped.after.push(...open.after);
      return result;
    });
    if (retried) return run;
    return run.catch(async (err: unknown) => {
      if ((err as { code?: unknown } | null)?.code !== DEADLOCK) throw err;
      // PostgreSQL undid this unit to break a deadlock: the other transaction waits for what this lane's group already
      // holds, so the unit runs once more, in the lane's next group, once this one is durable.
      await new Promise<void>((ok) => (lane.grouped ? lane.grouped.waiting.push(() => ok()) : ok()));
      return this.commit(fn, key, true);
    });
  }

  /**
   * R3 for answers: runs `fn(true)` now when nothing uncommitted exists, else once this turn's group is durable
   * (after its events went out), or `fn(false)` if it was rolled back. Anything read meanwhile may be uncommitted.
   */
  whenDurable(fn: (committed: boolean) => void, scope?: RequestScope): void {
    if (this.lanes.length === 1) {
      const grouped = this.lanes[0].grouped;
      return grouped ? void grouped.waiting.push(fn) : fn(true);
    }
    // A request's reads outside its units saw only what was committed: its own units' groups are all it waits for.
    // Otherwise every lane's open group: what was read meanwhile may come from any of them.
    const open = scope ? [...scope.groups] : this.lanes.flatMap((lane) => (lane.grouped ? [lane.grouped] : []));
    let left = open.length;
    let all = true;
    const one = (committed: boolean) => {
      all &&= committed;
      if (--left === 0) fn(all);
    };
    if (left === 0) return fn(true);
    for (const group of open) group.outcome === undefined ? group.waiting.push(one) : one(group.outcome);
  }

  /**
   * Runs a request's handler as `scope`: on a shared database its units' groups are recorded there (`whenDurable`), and
   * its reads outside a unit wait for what `before` returns (the groups of its client's earlier requests) instead of
   * every open lane. Elsewhere `fn` just runs.
   */
  request<T>(scope: RequestScope, before: () => Promise<unknown>, fn: () => T): T {
    const store = this.store;
    if (!isSharedStore(store) || this.lanes.length === 1) return fn();
    return this.scopes.run(scope, () => store.readsAfter(() => (scope.answered ? null : before()), fn));
  }

  /**
   * The seq a unit's event or message ends with: on a shared database the one it got at commit (D2), so this waits until
   * its group committed; elsewhere `seq` itself, at once.
   */
  async settledSeq(seq: number): Promise<number> {
    const store = this.store;
    if (seq >= 0 || !isSharedStore(store)) return seq;
    const committed = await new Promise<boolean>((resolve) => this.whenDurable(resolve));
    if (!committed) throw new Error('the change was not committed');
    return store.settledSeq(seq);
  }

  /**
   * Ends the group (the end of a turn, or a shutdown) after the units asked for before it: commit, fan out its events,
   * run its after-hooks, then `whenDurable`.
   */
  settle(): Promise<void> {
    if (!this.shared) {
      const lane = this.lanes[0];
      return lane.grouped ? this.inLane(lane, () => this.settleGroup(lane)) : (lane.queue as Promise<void>);
    }
    const lanes = this.lanes.map((lane) => (lane.grouped ? this.inLane(lane, () => this.settleGroup(lane)) : lane.queue));
    // And what a shared database's groups queued once committed (their events, their answers).
    return Promise.all(lanes).then(() => this.fanQueue.then(settled));
  }

  /**
   * Commits a lane's group, then fans out its events, runs its after-hooks and answers what waited for it. On a shared
   * database that second part is queued behind the catch-ups asked for before it (events go out in seq order, from the
   * database), and the lane goes on with its next group meanwhile.
   */
  private async settleGroup(lane: Lane): Promise<void> {
    const group = lane.grouped;
    if (!group) return;
    const shared = isSharedStore(this.store);
    let known = () => {};
    if (shared) {
      const onTheWay = new Promise<void>((ok) => (known = ok));
      this.commitsOnTheWay.add(onTheWay);
      void onTheWay.then(() => this.commitsOnTheWay.delete(onTheWay));
    }
    let committed: boolean;
    try {
      committed = await this.commitGroup(lane, group);
    } catch (err) {
      // Notifications held for this commit are decided now.
      known();
      throw err;
    }
    lane.grouped = null;
    if (isSharedStore(this.store)) {
      try {
        if (committed) this.noteOwnCommit(group);
      } finally {
        known();
      }
      // Also after a rollback: a gap left for this group's seqs is read now.
      this.requestCatchUp(() => this.afterCommit(group, committed), committed ? group.events.map((ev) => ev.seq) : undefined);
      return;
    }
    if (committed) {
      await this.prepare(group.events);
      this.fanOut(group.events, group.texts);
      for (const ev of group.events) this.allListeners.each((fn) => this.runHook('event listener', () => fn(ev)));
    }
    this.afterCommit(group, committed);
  }

  /** The group's events were numbered as it committed (D2): its own listeners get the real seqs, and they go out from here. */
  private noteOwnCommit(group: Group): void {
    const store = this.store as SharedStore;
    group.events.forEach((ev, i) => {
      ev.seq = store.settledSeq(ev.seq);
      // C2: a message's seq is its chat event's, numbered with it (the stored JSON still has the provisional one).
      const message = (ev.payload as { message?: { seq?: unknown } }).message;
      const renumbered = typeof message?.seq === 'number' && message.seq < 0;
      if (renumbered) message!.seq = store.settledSeq(message!.seq as number);
      // Not when it already went out (or is going), told by the commit's notification before its answer came.
      if (ev.seq > this.fanned && ev.seq > this.goingOut) this.ownCommitted.set(ev.seq, { ev, text: renumbered ? undefined : group.texts[i] });
    });
  }

  /** Once a group's events went out: its listeners, its after-hooks, then the answers that waited for it. */
  private afterCommit(group: Group, committed: boolean): void {
    group.outcome = committed;
    if (committed) {
      // Listeners hear this gateway's own commits only, so with several gateways each event is heard once.
      this.listeners.each((fn) => {
        for (const ev of group.events) this.runHook('event listener', () => fn(ev));
      });
      for (const fn of group.after) this.runHook('after-commit hook', () => fn());
    }
    for (const fn of group.waiting) this.runHook('answer after commit', () => fn(committed));
  }

  private async commitGroup(lane: Lane, group: Group): Promise<boolean> {
    try {
      await lane.store.commitGroup();
      return true;
    } catch (err) {
      this.log.error({ err, events: group.events.length }, 'committing events failed: every change of this turn is undone');
      try {
        await lane.store.rollbackGroup();
      } catch (undoErr) {
        this.log.error({ err: undoErr }, 'rolling back failed');
      }
      this.onRollback();
      return false;
    }
  }

  private runHook(what: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.log.error({ err }, `${what} failed`);
    }
  }

  private txOf(lane: Lane): Tx {
    return {
      emit: async (event, payload, audience, payloadJson) => {
        const open = lane.open;
        if (!open) throw new Error('emit outside a commit');
        if (this.checkPayloads) {
          const parsed = events[event].safeParse(payload);
          if (!parsed.success) throw new Error(`event ${event} breaks its schema: ${parsed.error.message}`);
        }
        const row = { event, payload, audience, atMs: this.clock.now() };
        const json = payloadJson ?? toJson(payload);
        const seq = await this.store.appendEvent(row, json);
        open.events.push({ ...row, seq });
        open.texts.push(json);
        return seq;
      },
      after: (fn) => {
        if (!lane.open) throw new Error('after outside a commit');
        lane.open.after.push(fn);
      },
    };
  }

  /**
   * Sends committed events, in seq order, to every subscriber that may see them (`texts[i]`: the payload JSON of
   * `events[i]` as this gateway stored it). Subscribers that see events alike (one `shareKey`) and had none of these
   * yet get every frame of them in one buffer, built once per key: a socket takes one write per commit, not one per
   * event (with fifty operators, a stream write per frame cost more than the frames).
   */
  private fanOut(events: StoredEvent[], texts?: string[]): void {
    if (events.length === 0) return;
    const shared = events.map((ev, i) => sharedFrame(ev, texts?.[i]));
    const decided = events.map(() => new Map<object, string | WireFrame | null>());
    const batches = new Map<object, WireFrame | null | 'each'>();
    const firstSeq = events[0].seq;
    for (const [sub, seenSeq] of this.subscribers) {
      const key = events.length > 1 && seenSeq < firstSeq ? this.shareKey(sub.viewer) : null;
      let batch = key === null ? 'each' : batches.get(key);
      if (batch === undefined) {
        batch = this.batch(sub.viewer, events, shared, decided);
        batches.set(key!, batch);
      }
      if (batch === 'each') this.sendEach(sub, seenSeq, events, shared, decided);
      else if (batch !== null) this.sendGuarded(sub, batch, firstSeq);
    }
  }

  /** Every frame of `events` this viewer sees, as one buffer (null: none); 'each' when a view failed, to go event by event. */
  private batch(viewer: Viewer, events: StoredEvent[], shared: (() => WireFrame)[], decided: Map<object, string | WireFrame | null>[]): WireFrame | null | 'each' {
    const frames: Buffer[] = [];
    let bytes = 0;
    try {
      for (let i = 0; i < events.length; i++) {
        const out = this.view(viewer, events[i], shared[i], decided[i]);
        if (out === null) continue;
        const frame = typeof out === 'string' ? textFrame(out) : out;
        frames.push(frame);
        bytes += frame.length;
      }
    } catch {
      return 'each';
    }
    if (frames.length <= 1) return (frames[0] as WireFrame | undefined) ?? null;
    return Buffer.concat(frames, bytes) as WireFrame;
  }

  private sendEach(sub: Subscriber, seenSeq: number, events: StoredEvent[], shared: (() => WireFrame)[], decided: Map<object, string | WireFrame | null>[]): void {
    for (let i = 0; i < events.length; i++) {
      const ev = events[i];
      if (ev.seq <= seenSeq) continue;
      let out: string | WireFrame | null;
      try {
        out = this.view(sub.viewer, ev, shared[i], decided[i]);
      } catch (err) {
        this.log.error({ err, seq: ev.seq }, 'sending an event failed');
        continue;
      }
      if (out !== null) this.sendGuarded(sub, out, ev.seq);
    }
  }

  /** The change is committed: one bad subscriber must not fail the request or starve the others. */
  private sendGuarded(sub: Subscriber, out: string | WireFrame, seq: number): void {
    try {
      sub.send(out);
    } catch (err) {
      this.log.error({ err, seq }, 'sending an event failed');
    }
  }

  /**
   * R2: sends every event after `cursor` up to `upTo` (the seq the subscriber's `add` names) this viewer may see,
   * oldest first. Run it inside `exclusive` (with the subscriber's `add`), so nothing committed meanwhile can slip
   * between the replay and live fan-out.
   */
  async replay(sub: Subscriber, cursor: number, upTo: number, pageSize = 1000): Promise<number> {
    let sent = 0;
    let after = cursor;
    for (;;) {
      const page = await this.store.eventsAfter(after, pageSize);
      await this.prepare(page);
      for (const ev of page) {
        // Later ones (another gateway's, committed since `upTo` was read) reach the subscriber live, after its `add`.
        if (ev.seq > upTo) return sent;
        const out = this.view(sub.viewer, ev, sharedFrame(ev));
        if (out !== null) {
          sub.send(out);
          sent++;
        }
      }
      if (page.length < pageSize) return sent;
      after = page[page.length - 1].seq;
    }
  }
}
