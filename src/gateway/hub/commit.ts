import type { GatewayLog } from '../infra/logger.ts';
import type { Clock } from '../infra/clock.ts';
import { ContextSlot } from '../infra/context.ts';
import type { LaneStore, Store, StoredEvent } from '../store/types.ts';
import { laneOf, noChanges, settled, type Group, type RequestScope, type Tx } from './units.ts';
import type { Turn } from './turn.ts';
import type { Follow } from './follow.ts';
import { Listeners } from '../../lib/listeners.ts';
import { inLane, openLane, type Filling, type Lane } from './lane.ts';
import { announce, whenAllKept } from './group-outcome.ts';

const noOneWaits = () => {};
/** At most this many units join a group past its turn's end (Commits.settleLane), so a stream of units cannot hold it open. */
export const FILL_UNITS = 16;

export interface CommitsOptions {
  store: Store;
  /** The lanes' stores: one (the store itself) on a single gateway. */
  laneStores: LaneStore[];
  clock: Clock;
  log: GatewayLog;
  turn: Turn;
  checkPayloads: boolean;
  /** After a group rolled back: caches filled from its writes must forget them. */
  onRollback: () => void;
  /** Reads (ahead of a fan-out) what the view will need of these events. */
  prepare: (events: StoredEvent[]) => Promise<void>;
  /** Single gateway: sends a committed group's events (prepared) to the subscribers and the listeners of every event. */
  publish: (events: StoredEvent[], texts: string[]) => void;
  /** Shared database: where committed groups go out from, in seq order; null on a single gateway. */
  follow: Follow | null;
}

/**
 * R1: every state-changing event is appended inside the store transaction of the change,
 * and fanned out only after that transaction committed.
 * Group commit: the commits of one event-loop turn join one store transaction, made durable when the turn ends
 * (Turn). Their events, their after-hooks and every answer that may reflect them (`whenDurable`) wait for it (R3).
 */
export class Commits {
  /** In-process listeners: every event this gateway committed, unfiltered; each decides what it may use. */
  readonly listeners = new Listeners<[StoredEvent]>();
  /**
   * Per lane, units of work (commits), a group's commit and its fan-out run one at a time, in the order they were asked
   * for: the commits that arrive while a group commits go into the next group together.
   */
  private readonly lanes: Lane[];
  /** The request whose handler runs now (shared database). */
  private readonly scopes = new ContextSlot<RequestScope>('askdock.request');
  private readonly store: Store;
  private readonly follow: Follow | null;
  /** The groups that took in units past their turn's end (settleLane). */
  private readonly filled = new WeakSet<Group>();

  constructor(private readonly o: CommitsOptions) {
    this.store = o.store;
    this.follow = o.follow;
    o.turn.onSettle(() => this.settle());
    this.lanes = o.laneStores.map((laneStore) => openLane(laneStore, o));
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
    const follow = this.follow;
    // With several lanes each open group commits in its own lane first: a group may hold a lock that another lane's
    // unit waits for (the audit log's, L1), so waiting for every lane before any group commits could wait for itself.
    const lanes = this.lanes.length === 1 ? [this.lanes[0].queue] : this.lanes.map((lane) => inLane(lane, () => this.settleGroup(lane)));
    const before = follow ? [...lanes, follow.queue] : lanes;
    const run = Promise.allSettled(before).then(fn);
    const done = run.then(settled, settled);
    for (const lane of this.lanes) lane.queue = done;
    if (follow) follow.queue = done;
    return run;
  }

  /** True when units run in several lanes, so their key (commit's `key`) matters. */
  get laned(): boolean {
    return this.lanes.length > 1;
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
    lane.pending++;
    const filling = lane.filling;
    const run = inLane(lane, async () => {
      try {
        return await this.unit(lane, fn, retried);
      } catch (err) {
        // Undone alone (its nested transaction), the group goes on taking units in while it holds the lock its unit
        // waited for. If the unit doomed the group (its connection gone, or a put-off write lost it), or was refused that
        // lock (a lock_timeout, a deadlock), the units asked for from now on go into the next one: the group waits for
        // nothing now, and one it took in would wait for the lock again, holding back the answers of those it holds.
        if (lane.filling && (lane.store.doomed?.() || !lane.store.holdsLock?.())) this.askCommit(lane, lane.filling);
        throw err;
      } finally {
        lane.pending--;
        const left = lane.filling;
        if (left && --left.units === 0) this.askCommit(lane, left);
      }
    });
    // The FILL_UNITS-th joiner is in the lane: the group's commit goes behind it.
    if (filling && ++filling.joined >= FILL_UNITS) this.askCommit(lane, filling);
    if (retried) return run;
    return run.catch(async (err: unknown) => {
      if (!this.store.mustRetry?.(err)) throw err;
      // The engine undid this unit to break a deadlock: the other transaction waits for what this lane's group already
      // holds, so the unit runs once more, in the lane's next group, once this one is durable.
      await new Promise<void>((ok) => (lane.grouped ? lane.grouped.waiting.push(() => ok()) : ok()));
      return this.commit(fn, key, true);
    });
  }

  /** One unit in its lane's group (begun here if none is open). */
  private async unit<T>(lane: Lane, fn: (tx: Tx) => Promise<T> | T, retried: boolean): Promise<T> {
    // A group taking in units past its turn's end that can no longer be kept is undone first: this unit begins the next.
    if (lane.grouped && this.filled.has(lane.grouped) && lane.store.doomed?.()) await this.settleGroup(lane);
    if (!lane.grouped) {
      await lane.store.beginGroup();
      lane.grouped = { ...noChanges(), waiting: [] };
      this.o.turn.touch();
    }
    const grouped = lane.grouped;
    const scope = this.scopes.get();
    // The request waits for this group because of this unit alone (none of its other units joined it).
    const joined = scope && !scope.answered && !scope.groups.has(grouped) ? scope : null;
    joined?.groups.add(grouped);
    const open = noChanges();
    lane.open = open;
    let result: T;
    try {
      result = await lane.store.transaction(() => fn(lane.tx));
    } catch (err) {
      // Run again in a later group: nothing of this run is kept or answered, so whether this group is kept is no part
      // of the request's answer (else its second run, kept, would be answered "undone").
      if (joined && !retried && this.store.mustRetry?.(err)) joined.groups.delete(grouped);
      throw err;
    } finally {
      lane.open = null;
    }
    grouped.events.push(...open.events);
    grouped.texts.push(...open.texts);
    grouped.after.push(...open.after);
    return result;
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
    whenAllKept(scope ? [...scope.groups] : this.lanes.flatMap((lane) => (lane.grouped ? [lane.grouped] : [])), fn);
  }

  /**
   * Runs a request's handler as `scope`: on a shared database its units' groups are recorded there (`whenDurable`), and
   * its reads outside a unit wait for what `before` returns (the groups of its client's earlier requests) instead of
   * every open lane. Elsewhere `fn` just runs.
   */
  request<T>(scope: RequestScope, before: () => Promise<unknown>, fn: () => T): T {
    const store = this.store;
    if (!store.readsAfter || this.lanes.length === 1) return fn();
    return this.scopes.run(scope, () => store.readsAfter!(() => (scope.answered ? null : before()), fn));
  }

  /**
   * The seq a unit's event or message ends with: on a shared database the one it got at commit (D2), so this waits until
   * its group committed; elsewhere `seq` itself, at once. Inside a request, for that request's groups only (the unit's
   * among them): another lane's group, rolled back meanwhile, is no part of it.
   */
  async settledSeq(seq: number): Promise<number> {
    const store = this.store;
    if (seq >= 0 || !store.settledSeq) return seq;
    const scope = this.scopes.get();
    const own = scope && !scope.answered ? scope : undefined;
    const committed = await new Promise<boolean>((resolve) => this.whenDurable(resolve, own));
    if (!committed) throw new Error('the change was not committed');
    return store.settledSeq(seq);
  }

  /**
   * Ends the group (the end of a turn, or a shutdown) after the units asked for before it: commit, fan out its events,
   * run its after-hooks, then `whenDurable`.
   */
  settle(): Promise<void> {
    const follow = this.follow;
    if (!follow) {
      const lane = this.lanes[0];
      return lane.grouped ? inLane(lane, () => this.settleGroup(lane)) : (lane.queue as Promise<void>);
    }
    const lanes = this.lanes.map((lane) => this.settleLane(lane));
    // And what a shared database's groups queued once committed (their events, their answers).
    return Promise.all(lanes).then(() => follow.queue.then(settled));
  }

  /**
   * A shared database's lane at the end of a turn. When a unit its group holds waits for the audit log's lock (L1), held
   * by another gateway's group, while other gateways commit, its commit could not start before that lock is granted
   * anyway: until then the units asked for meanwhile join it (up to FILL_UNITS), and its commit is asked for, behind
   * them, once the units it held have ended. Any other lane commits at once, as before: one whose units all ended, one
   * that holds the lock (the others wait for its commit), and every lane of a gateway alone on its database, whose
   * answers would only wait longer (bench/FINDINGS.md 72, 76). Units asked for after that go into its next group.
   */
  private settleLane(lane: Lane): Promise<unknown> {
    const group = lane.grouped;
    if (!group) return lane.queue;
    if (lane.filling) return lane.filling.done;
    const waits = lane.pending > 0 && this.follow?.othersCommitting && lane.store.waitsForLock?.();
    if (!waits) return inLane(lane, () => this.settleGroup(lane));
    let ended!: () => void;
    const done = new Promise<void>((ok) => (ended = ok));
    lane.filling = { group, units: lane.pending, joined: 0, done, ended };
    this.filled.add(group);
    return done;
  }

  /** The filling group's commit, asked for now: behind the units already asked for in its lane. */
  private askCommit(lane: Lane, filling: Filling): void {
    if (lane.filling !== filling) return;
    lane.filling = null;
    inLane(lane, () => (lane.grouped === filling.group ? this.settleGroup(lane) : undefined)).then(filling.ended, filling.ended);
  }

  /**
   * Commits a lane's group, then fans out its events, runs its after-hooks and answers what waited for it. On a shared
   * database that second part is queued behind the catch-ups asked for before it (events go out in seq order, from the
   * database), and the lane goes on with its next group meanwhile.
   */
  private async settleGroup(lane: Lane): Promise<void> {
    const group = lane.grouped;
    if (!group) return;
    const follow = this.follow;
    const known = follow ? follow.commitOnTheWay() : noOneWaits;
    let committed: boolean;
    try {
      committed = await this.commitGroup(lane, group);
    } catch (err) {
      // Notifications held for this commit are decided now.
      known();
      throw err;
    }
    lane.grouped = null;
    // Committed another way (a snapshot's `quiet`) while it was taking in units: nothing is left to ask for.
    if (lane.filling?.group === group) {
      lane.filling.ended();
      lane.filling = null;
    }
    if (follow) return follow.ownCommit(group, committed, known, () => this.afterCommit(group, committed));
    if (committed) {
      await this.o.prepare(group.events);
      this.o.publish(group.events, group.texts);
    }
    this.afterCommit(group, committed);
  }

  /** Once a group's events went out: its listeners, its after-hooks, then the answers that waited for it. */
  private afterCommit(group: Group, committed: boolean): void {
    announce(group, committed, this.o.log, this.listeners);
  }

  private async commitGroup(lane: Lane, group: Group): Promise<boolean> {
    try {
      await lane.store.commitGroup();
      return true;
    } catch (err) {
      this.o.log.error({ err, events: group.events.length }, 'committing events failed: every change of this turn is undone');
      try {
        await lane.store.rollbackGroup();
      } catch (undoErr) {
        this.o.log.error({ err: undoErr }, 'rolling back failed');
      }
      this.o.onRollback();
      return false;
    }
  }
}
