import type { GatewayLog } from '../infra/logger.ts';
import type { Store, StoredEvent } from '../store/types.ts';
import type { Listeners } from '../../lib/listeners.ts';
import { runHook, settled, type Group } from './units.ts';
import { OwnSeqs } from './own-seqs.ts';

/** How long a gap before events known here waits for the notification that fills it before it is read (hub, shared database). */
const GAP_READ_MS = 2_000;

/** The store of a shared database: what following it uses. */
export type FollowedStore = Store & Required<Pick<Store, 'onCommitted' | 'readCommitted' | 'settledSeq'>>;

export interface FollowOptions {
  store: FollowedStore;
  log: GatewayLog;
  /** Reads (ahead of a fan-out) what the view will need of these events. */
  prepare: (events: StoredEvent[]) => Promise<void>;
  /** Sends a run of committed events, in seq order, to the subscribers (`texts[i]`: the payload JSON as stored, when known). */
  send: (events: StoredEvent[], texts: (string | undefined)[]) => void;
  /** The in-process listeners of every committed event, this gateway's and the others'. */
  allListeners: Listeners<[StoredEvent]>;
}

/**
 * D2, on a database several gateways share: events go out from the database in seq order, this gateway's and the
 * others' alike, so a client's cursor never passes an event it did not get. Commit notifications tell what is new;
 * this gateway's own committed events go out without a read when nothing lies between them and the newest sent.
 */
export class Follow {
  /** Reading and sending committed events: one catch-up at a time, in seq order. */
  queue: Promise<unknown> = Promise.resolve();
  /** The newest seq fanned out here. */
  private fanned = 0;
  /** The newest of this gateway's own events taken to go out (being prepared), else 0. */
  private goingOut = 0;
  /** Own committed events not fanned out yet, by seq: with no other seq between them and `fanned`, sent unread. */
  private readonly ownCommitted = new Map<number, { ev: StoredEvent; text: string | undefined }>();
  /** Another gateway committed (or a notification may have been missed), so a catch-up reads the database. */
  private mustRead = false;
  /** Per group whose commit is on the way, settles once its events are known (in `ownCommitted`). */
  private readonly commitsOnTheWay = new Set<Promise<void>>();
  /** `fanned` holds where this gateway began (start), so notifications count from there. */
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
  /** Another gateway's commit was heard since this gateway's last own one: the database is shared by busy gateways now. */
  othersCommitting = false;
  /** This gateway's latest commits, told from other gateways' notices. */
  private readonly own = new OwnSeqs();
  /** Hears every event fanned out from a shared database, e.g. to wake waiters for a question resolved elsewhere. */
  private heard: (ev: StoredEvent) => void = () => {};

  constructor(private readonly o: FollowOptions) {
    // null: LISTEN reconnected and may have missed notifications, so read what is new anyway.
    const noticed = (seq: number | null) => {
      // A commit's notification tells its last seq; this gateway's own are fanned out from its settled groups.
      if (seq !== null && this.knows(seq)) return;
      this.mustRead = true;
      this.queueCatchUp();
    };
    this.unlisten = o.store.onCommitted((seq, told) => {
      // Before start() has read where to begin, nothing is fanned out (start reads once it knows).
      if (!this.started) return;
      // This gateway's own commit, its answer come first: its events are known here, nothing to parse or read.
      if (told && seq !== null && this.knowsAll(told.first, seq)) return;
      // Not known now: another gateway's commit, or one of this gateway's whose answer has not come yet.
      if (seq !== null) this.afterOwnCommits(() => this.own.has(seq) || (this.othersCommitting = true));
      const events = told?.events();
      if (events) {
        // The notification carries the commit's events: they go out from it, in seq order, like this gateway's own.
        // Notifications are sent after their commits' flushes, so they may arrive out of seq order: a seq not heard
        // yet is waited for, then read (queueCatchUp).
        for (const told of events) if (!this.knows(told.ev.seq)) this.ownCommitted.set(told.ev.seq, told);
        return this.queueCatchUp();
      }
      // The notification of a commit of this gateway's own may arrive before the commit's answer does: decided once the
      // commits on the way now have returned, it costs no read when it was one of them.
      if (seq === null) return noticed(seq);
      this.afterOwnCommits(() => noticed(seq));
    });
  }

  /** Runs `fn` once the commits of this gateway's on the way now have returned (at once when none is). */
  private afterOwnCommits(fn: () => void): void {
    if (this.commitsOnTheWay.size === 0) return fn();
    void Promise.all(this.commitsOnTheWay).then(fn);
  }

  /** Whether event `seq` went out, is going out, or waits here to go out. */
  private knows(seq: number): boolean {
    return seq <= this.fanned || seq <= this.goingOut || this.ownCommitted.has(seq);
  }

  /** Whether every seq from `first` to `last` is known here (a commit's notification, told after its answer came). */
  private knowsAll(first: number, last: number): boolean {
    if (last <= this.fanned) return true;
    if (last - first > 10_000) return false;
    for (let seq = first; seq <= last; seq++) if (!this.knows(seq)) return false;
    return true;
  }

  /** Before the first commit: events committed before this gateway started are not fanned out again. */
  async start(): Promise<void> {
    this.fanned = await this.o.store.latestSeq();
    this.started = true;
    // What committed while that read was on the way was told before this gateway counted from it.
    this.mustRead = true;
    await new Promise<void>((ok) => this.requestCatchUp(ok));
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

  /** A group of this gateway's is about to commit: returns what to call once its events are known (or it failed). */
  commitOnTheWay(): () => void {
    let known = () => {};
    const onTheWay = new Promise<void>((ok) => (known = ok));
    this.commitsOnTheWay.add(onTheWay);
    void onTheWay.then(() => this.commitsOnTheWay.delete(onTheWay));
    return known;
  }

  /** A group of this gateway's committed (or rolled back): `after` runs once its events went out, in seq order. */
  ownCommit(group: Group, committed: boolean, known: () => void, after: () => void): void {
    try {
      if (committed) this.noteOwnCommit(group);
      if (committed) this.othersCommitting = false;
      if (committed && group.events.length > 0) this.own.remember(group.events.map((ev) => ev.seq));
    } finally {
      known();
    }
    // Also after a rollback: a gap left for this group's seqs is read now.
    this.requestCatchUp(after, committed ? group.events.map((ev) => ev.seq) : undefined);
  }

  /** Runs a catch-up (reading committed events and sending them) after the ones asked for before it. */
  private fanning<T>(fn: () => Promise<T> | T): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.then(settled, settled);
    return run;
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

  /** Fans out, oldest first, every committed event after the newest one already fanned out. */
  private async catchUp(pageSize = 1000): Promise<void> {
    // Committed events, and what their views need, as committed: no wait for this gateway's open groups.
    return this.o.store.readCommitted(() => this.catchUpNow(pageSize));
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
            await this.o.prepare(own.map((o) => o.ev));
          } finally {
            this.goingOut = 0;
          }
          this.deliver(own);
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
        const page = await this.o.store.eventsAfter(this.fanned, pageSize);
        // Read, not told (a LISTEN that reconnected, a gap): any that is none of this gateway's is another's commit.
        const read = page.map((ev) => ev.seq);
        if (read.length > 0) this.afterOwnCommits(() => read.some((seq) => !this.own.has(seq)) && (this.othersCommitting = true));
        await this.o.prepare(page);
        this.deliver(page.map((ev) => ({ ev, text: undefined })));
        for (const seq of this.ownCommitted.keys()) if (seq <= this.fanned) this.ownCommitted.delete(seq);
        if (page.length === pageSize) this.mustRead = true;
        else if (this.ownCommitted.size > 0 && !this.ownCommitted.has(this.fanned + 1)) return;
      }
    } catch (err) {
      this.o.log.error({ err }, 'reading committed events failed, trying again');
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

  /**
   * Sends a run of committed events (in seq order) at once, so a connection takes one write per run, not one per event,
   * then lets this gateway's listeners of every event hear them.
   */
  private deliver(run: { ev: StoredEvent; text: string | undefined }[]): void {
    if (run.length === 0) return;
    const log = this.o.log;
    this.fanned = run[run.length - 1].ev.seq;
    this.o.send(
      run.map((o) => o.ev),
      run.map((o) => o.text),
    );
    for (const { ev } of run) {
      runHook(log, 'hearing an event', () => this.heard(ev));
      this.o.allListeners.each((fn) => runHook(log, 'event listener', () => fn(ev)));
    }
  }

  /** The group's events were numbered as it committed (D2): its own listeners get the real seqs, and they go out from here. */
  private noteOwnCommit(group: Group): void {
    const store = this.o.store;
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
}
