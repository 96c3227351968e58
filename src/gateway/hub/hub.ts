import type { EventName, EventPayload } from '../../protocol/index.ts';
import type { GatewayLog } from '../infra/logger.ts';
import type { Clock } from '../infra/clock.ts';
import { laneStores, type Store, type StoredEvent } from '../store/types.ts';
import type { Turn } from './turn.ts';
import type { Identity } from '../auth.ts';
import { textFrame, type WireFrame } from './wire.ts';
import { sharedFrame } from './event-frame.ts';
import { Listeners } from '../../lib/listeners.ts';
import { Commits } from './commit.ts';
import { runHook, type RequestScope, type Tx } from './units.ts';
import { Follow, type FollowedStore } from './follow.ts';

export { RequestScope, laneOf, type Tx } from './units.ts';

/** Who is looking: agents also carry the sessions they subscribed to (C6). */
export type Viewer = { identity: Identity; subscribed(sessionKey: string | null): boolean };

/** A connection as the hub sees it: who looks, and where its frames go. */
export interface Subscriber {
  readonly viewer: Viewer;
  send(out: string | WireFrame): void;
}

/**
 * Decides per viewer whether an event is sent and as what; `shared` is the common frame, built once per event.
 * `decided` lives for one fan-out of one event (absent in a replay): where the view may reuse a decision it made for
 * another viewer of that fan-out, it keeps it there.
 */
export type EventView = (viewer: Viewer, ev: StoredEvent, shared: () => WireFrame, decided?: Map<object, string | WireFrame | null>) => string | WireFrame | null;

export interface HubOptions {
  store: Store;
  clock: Clock;
  view: EventView;
  /** Checks each event's payload against its schema before it is stored (tests, `checkFrames`). */
  checkPayloads: boolean;
  log: GatewayLog;
  turn: Turn;
  /** After a group rolled back: caches filled from its writes must forget them. */
  onRollback: () => void;
  /** The key under which viewers see every event alike (for one whose identity alone decides, the identity), or null. */
  shareKey?: (viewer: Viewer) => object | null;
  /** Reads (ahead of a fan-out or replay) what `view` will need of these events, so the view itself never waits. */
  prepare?: (events: StoredEvent[]) => Promise<void>;
}

/**
 * The gateway's events: units of work commit through it (commit.ts: lanes, groups, durability), and once committed
 * their events go to every subscriber whose viewer may see them, from here on a single gateway, from the shared
 * database in seq order otherwise (follow.ts). A subscriber that reconnects gets what it missed (`replay`).
 */
export class EventHub {
  /** Each subscriber with the newest seq it already has (from its snapshot or replay): older events are not sent again. */
  private readonly subscribers = new Map<Subscriber, number>();
  /** In-process listeners of every committed event, this gateway's and (shared database) the others' (the channels). */
  private readonly allListeners = new Listeners<[StoredEvent]>();
  private readonly commits: Commits;
  /** Shared database: where events go out from (null on a single gateway). */
  private readonly follow: Follow | null;
  private readonly store: Store;
  private readonly view: EventView;
  private readonly log: GatewayLog;
  private readonly shareKey: (viewer: Viewer) => object | null;
  private readonly prepare: (events: StoredEvent[]) => Promise<void>;

  constructor(o: HubOptions) {
    const { store, log } = o;
    this.store = store;
    this.view = o.view;
    this.log = log;
    this.shareKey = o.shareKey ?? (() => null);
    const prepare = (this.prepare = o.prepare ?? (async () => {}));
    // A store other gateways commit to (it tells of their commits): events go out from it, in seq order.
    this.follow =
      store.onCommitted && store.readCommitted && store.settledSeq
        ? new Follow({
            store: store as FollowedStore,
            log,
            prepare,
            send: (events, texts) => this.fanOut(events, texts),
            allListeners: this.allListeners,
          })
        : null;
    this.commits = new Commits({
      store,
      laneStores: laneStores(store),
      clock: o.clock,
      log,
      turn: o.turn,
      checkPayloads: o.checkPayloads,
      onRollback: o.onRollback,
      prepare,
      publish: (events, texts) => {
        this.fanOut(events, texts);
        for (const ev of events) this.allListeners.each((fn) => runHook(log, 'event listener', () => fn(ev)));
      },
      follow: this.follow,
    });
  }

  /** Before the first commit (shared store): events committed before this gateway started are not fanned out again. */
  start(): Promise<void> {
    return this.follow ? this.follow.start() : Promise.resolve();
  }

  /** See Commits.quiet: `fn` with nothing uncommitted and no fan-out meanwhile. */
  quiet<T>(fn: () => Promise<T> | T): Promise<T> {
    return this.commits.quiet(fn);
  }

  /** See Commits.exclusive. */
  exclusive<T>(fn: () => Promise<T> | T): Promise<T> {
    return this.commits.exclusive(fn);
  }

  /** True when units run in several lanes, so their key (commit's `key`) matters. */
  get laned(): boolean {
    return this.commits.laned;
  }

  /** Hears every event fanned out from a shared database, e.g. to wake waiters for a question resolved elsewhere. */
  onHeard(fn: (ev: StoredEvent) => void): void {
    this.follow?.onHeard(fn);
  }

  /** Stops hearing other gateways' commits (shutdown). */
  stopListening(): void {
    this.follow?.stopListening();
  }

  /** See Commits.commit: `fn` as one unit of work, in the lane of `key`. */
  commit<T>(fn: (tx: Tx) => Promise<T> | T, key?: string | null): Promise<T> {
    return this.commits.commit(fn, key);
  }

  /** See Commits.whenDurable (R3 for answers). */
  whenDurable(fn: (committed: boolean) => void, scope?: RequestScope): void {
    this.commits.whenDurable(fn, scope);
  }

  /** See Commits.request: a request's handler run as `scope`. */
  request<T>(scope: RequestScope, before: () => Promise<unknown>, fn: () => T): T {
    return this.commits.request(scope, before, fn);
  }

  /** See Commits.settledSeq. */
  settledSeq(seq: number): Promise<number> {
    return this.commits.settledSeq(seq);
  }

  /** Ends the group (the end of a turn, or a shutdown): see Commits.settle. */
  settle(): Promise<void> {
    return this.commits.settle();
  }

  /** `seenSeq`: the newest seq its hello-ok snapshot or replay covered; it gets only later events. */
  add(sub: Subscriber, seenSeq: number): void {
    this.subscribers.set(sub, seenSeq);
  }

  /** Calls `fn` with every event once it is committed; returns the unsubscribe. */
  listen(fn: (ev: StoredEvent) => void): () => void {
    return this.commits.listeners.add(fn);
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
   * Sends committed events, in seq order, to every subscriber that may see them (`texts[i]`: the payload JSON of
   * `events[i]` as this gateway stored it). Subscribers that see events alike (one `shareKey`) and had none of these
   * yet get every frame of them in one buffer, built once per key: a socket takes one write per commit, not one per
   * event (with fifty operators, a stream write per frame cost more than the frames).
   */
  private fanOut(events: StoredEvent[], texts?: (string | undefined)[]): void {
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
