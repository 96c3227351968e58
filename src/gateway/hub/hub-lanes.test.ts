import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { realClock } from '../infra/clock.ts';
import { EventHub, RequestScope, laneOf } from './hub.ts';
import { memoryLogger } from '../infra/logger.ts';
import { Turn } from './turn.ts';
import type { SharedStore } from '../store/postgres/cluster.ts';
import type { StoredEvent } from '../store/types.ts';
import { postgresStorePerTest } from '../../testing/postgres-store-per-test.ts';
import { emitSession, holdOpen, laneHub, twoLanes } from '../../testing/hub-lanes.ts';

const session = (key: string) => ({ key, title: key, createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 0 });
// What a check below must not wait for (a unit held open until the test lets go, a lock another lane holds) never
// ends by itself: the promise is awaited as it is, so a wrong wait runs into the test's timeout however fast the machine
// is, and a right one passes however slow (no race against a timer of a few seconds).

const stores = postgresStorePerTest();
afterEach(() => vi.restoreAllMocks());

/** Counts the reads of a session sent outside a transaction (those go through the pool; a transaction has a connection of its own). */
function sessionReads(): () => number {
  let reads = 0;
  const query = pg.Pool.prototype.query as (...args: unknown[]) => unknown;
  vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
    if (text?.includes('FROM sessions s WHERE s.key')) reads++;
    return query.apply(this, args);
  } as never);
  return () => reads;
}

/** A read of session `key` that waits for nothing: once it is answered, every read asked for before it and free to go was sent. */
const unwaitedRead = (store: SharedStore, key: string) => store.readCommitted(() => store.getSession(key));

async function setup() {
  const { store } = await stores.open('lanes');
  return { hub: laneHub(store), store, ...twoLanes(store), emit: emitSession };
}

describe('D5 lanes on PostgreSQL', () => {
  it("[D5][R3] a request's answer waits for the group its own unit joined, not for another lane's group still open", async () => {
    const { hub, a, b, emit } = await setup();
    // Session a's unit stays open, so its lane's group cannot commit.
    const { held, release } = holdOpen(hub, a);
    await new Promise((ok) => setImmediate(ok));

    const scope = new RequestScope();
    await hub.request(scope, () => Promise.resolve(), () => hub.commit(emit(b), b));
    let anyLane: boolean | null = null;
    hub.whenDurable((committed) => (anyLane = committed));
    expect(await new Promise<boolean>((ok) => hub.whenDurable(ok, scope))).toBe(true);
    // Without a request, an answer waits for every open group.
    expect(anyLane).toBeNull();

    release();
    await held;
    await expect.poll(() => anyLane).toBe(true);
  });

  it("[D5] a request's reads wait for its client's earlier requests only; reads outside any request wait for every open group", async () => {
    const { hub, store, a, emit } = await setup();
    await store.createSession({ key: 'x', title: 'x', createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null });
    const { held, release } = holdOpen(hub, a);
    await new Promise((ok) => setImmediate(ok));

    const reads = sessionReads();
    let earlierDone!: () => void;
    const earlier = new Promise<void>((ok) => (earlierDone = ok));
    const inRequest = hub.request(new RequestScope(), () => earlier, () => store.getSession('x'));
    const outside = store.getSession('x').then((s) => s?.key);
    // Asked for after both: once it is answered, neither of them was sent.
    await unwaitedRead(store, 'x');
    expect(reads()).toBe(1);
    earlierDone();
    expect(await inRequest).toMatchObject({ key: 'x' });
    // The one outside any request still waits for session a's open group.
    await unwaitedRead(store, 'x');
    expect(reads()).toBe(3);
    release();
    await held;
    expect(await outside).toBe('x');
    expect(reads()).toBe(4);
  });

  it("[D5] what runs in a request's context once it was answered (e.g. a timer it armed) joins none of its groups and reads as code outside any request", async () => {
    const { hub, store, a, b, emit } = await setup();
    await store.createSession({ key: 'x', title: 'x', createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null });
    const scope = new RequestScope();
    scope.answered = true;
    const { held, release } = holdOpen(hub, a);
    await new Promise((ok) => setImmediate(ok));
    // In the answered request's context: the unit joins nothing of it, and a read waits for the open group as outside.
    const reads = sessionReads();
    let asked = false;
    const inContext = hub.request(scope, () => Promise.resolve(), async () => {
      await hub.commit(emit(b), b);
      asked = true;
      return store.getSession('x');
    });
    await expect.poll(() => asked).toBe(true);
    // Asked for after it: once it is answered, the read in the answered request's context was not sent.
    await unwaitedRead(store, 'x');
    expect(scope.groups.size).toBe(0);
    expect(reads()).toBe(1);
    release();
    await held;
    expect(await inContext).toMatchObject({ key: 'x' });
  });
});

describe('D5 fan-out of a gateway\'s own commits on PostgreSQL', () => {
  /** Every event the hub delivers, in the order it delivers them, and how often it read committed events back. */
  function watch(hub: EventHub, shared: SharedStore) {
    const seqs: number[] = [];
    hub.listenAll((ev) => seqs.push(ev.seq));
    const reads: number[] = [];
    const eventsAfter = shared.eventsAfter.bind(shared);
    shared.eventsAfter = (after, limit) => (reads.push(after), eventsAfter(after, limit));
    return { seqs, reads };
  }
  const run = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

  it('[D5][D2] its own commits, in one lane or several, go out in seq order without being read back from the database', async () => {
    const { store } = await stores.open('ownfanout');
    // Only this gateway's own commits drive its fan-out here: no notification can ask for a read.
    store.onCommitted = () => () => {};
    const turn = new Turn();
    const hub = new EventHub({ store, clock: realClock, view: (_v, _e, shared) => shared(), checkPayloads: false, log: memoryLogger().log, turn, onRollback: () => {} });
    await hub.start();
    const { seqs, reads } = watch(hub, store);
    const keys = Array.from({ length: 6 }, (_, i) => `session-${i}`);
    for (let round = 0; round < 5; round++) {
      // Six sessions (several lanes) commit in each turn; each unit emits two events.
      await Promise.all(
        keys.map((key) =>
          hub.commit(async (tx) => {
            await tx.emit('session.updated', { session: session(key) }, { sessionKey: key });
            await tx.emit('session.updated', { session: session(key) }, { sessionKey: key });
          }, key),
        ),
      );
      await hub.settle();
    }
    await expect.poll(() => seqs.length).toBe(60);
    expect(seqs).toEqual(run(60));
    expect(reads).toEqual([]);
  });

  it("[D5][R1] a commit whose lower seqs belong to its own commit still on the way waits for it: its events go out first, then its answer", async () => {
    const { store } = await stores.open('ownbehind');
    store.onCommitted = () => () => {};
    // Lane of session a: its COMMIT is done in the database (its seqs taken) but reaches the hub only on release.
    const a = 'session-a';
    let b = 'session-b0';
    for (let i = 1; laneOf(b, store.lanes) === laneOf(a, store.lanes); i++) b = `session-b${i}`;
    let release!: () => void;
    const gate = new Promise<void>((ok) => (release = ok));
    let committedInDb!: () => void;
    const aCommitted = new Promise<void>((ok) => (committedInDb = ok));
    const lane = store.lane.bind(store);
    store.lane = (i) => {
      const l = lane(i);
      if (i !== laneOf(a, store.lanes)) return l;
      return { ...l, commitGroup: async () => (await l.commitGroup(), committedInDb(), await gate) };
    };
    const hub = new EventHub({ store, clock: realClock, view: (_v, _e, shared) => shared(), checkPayloads: false, log: memoryLogger().log, turn: new Turn(), onRollback: () => {} });
    await hub.start();
    const { seqs, reads } = watch(hub, store);
    const order: string[] = [];
    hub.listenAll((ev) => order.push(`event ${ev.seq}`));
    const emit = (key: string) => (tx: Parameters<Parameters<EventHub['commit']>[0]>[0]) => tx.emit('session.updated', { session: session(key) }, { sessionKey: key });
    await hub.commit(emit(a), a);
    const aSettled = hub.settle();
    await aCommitted;
    // b commits after a's seqs were taken: it gets seq 2, behind a's 1 which the hub has not heard of yet.
    const scope = new RequestScope();
    await hub.request(scope, () => Promise.resolve(), () => hub.commit(emit(b), b));
    const bAnswered = new Promise<void>((ok) => hub.whenDurable(() => (order.push('b answered'), ok()), scope));
    // The catch-up b's commit asks for: once it has run, b's event and answer went out, or were held back.
    const caughtUp = nextCatchUp(store);
    void hub.settle();
    await caughtUp;
    expect(order).toEqual([]);
    release();
    await aSettled;
    await bAnswered;
    expect(seqs).toEqual([1, 2]);
    expect(order).toEqual(['event 1', 'event 2', 'b answered']);
    expect(reads).toEqual([]);
  });

  /** Settles once the hub's next catch-up (its read of what is committed, and what went out after it) has run. */
  function nextCatchUp(shared: SharedStore): Promise<void> {
    const readCommitted = shared.readCommitted.bind(shared);
    return new Promise((ok) => {
      shared.readCommitted = (fn) => {
        shared.readCommitted = readCommitted;
        // A turn later: what the catch-up lets go runs in the microtasks after its read.
        return readCommitted(fn).finally(() => setImmediate(ok));
      };
    });
  }

  /** Five rounds: a commit of this gateway, one of another (its title `theirs(round)`), one of this again: what the first hears. */
  async function mixed(theirs: (round: number) => string) {
    const { store } = await stores.open('ownmixed');
    const { store: other } = await stores.open('ownmixed');
    const hub = new EventHub({ store, clock: realClock, view: (_v, _e, shared) => shared(), checkPayloads: false, log: memoryLogger().log, turn: new Turn(), onRollback: () => {} });
    const otherHub = new EventHub({ store: other, clock: realClock, view: (_v, _e, shared) => shared(), checkPayloads: false, log: memoryLogger().log, turn: new Turn(), onRollback: () => {} });
    await hub.start();
    await otherHub.start();
    const { seqs, reads } = watch(hub, store);
    const titles: string[] = [];
    hub.listenAll((ev) => titles.push((ev.payload as { session: { title: string } }).session.title));
    const one = (h: EventHub, key: string, title = key) =>
      h.commit((tx) => tx.emit('session.updated', { session: { ...session(key), title } }, { sessionKey: key }), key).then(() => h.settle());
    for (let round = 0; round < 5; round++) {
      await one(hub, `mine-${round}`);
      await one(otherHub, `theirs-${round}`, theirs(round));
      await one(hub, `mine-again-${round}`);
    }
    await expect.poll(() => seqs.length).toBe(15);
    expect(seqs).toEqual(run(15));
    expect(titles).toEqual([0, 1, 2, 3, 4].flatMap((round) => [`mine-${round}`, theirs(round), `mine-again-${round}`]));
    return reads;
  }

  it("[D5][R3] a commit whose notification told its events before its own answer came: they go out once, and its answer is not held back", async () => {
    const { store } = await stores.open('toldfirst');
    // The told events are being prepared (as a read for their views would) when the commit's answer arrives.
    let preparing!: () => void;
    const inPrepare = new Promise<void>((ok) => (preparing = ok));
    let release!: () => void;
    const released = new Promise<void>((ok) => (release = ok));
    let gated = false;
    const prepare = async (events: StoredEvent[]) => {
      if (gated || events.length === 0) return;
      gated = true;
      preparing();
      await released;
    };
    const lane = store.lane.bind(store);
    store.lane = (i) => {
      const l = lane(i);
      return { ...l, commitGroup: async () => (await l.commitGroup(), await inPrepare) };
    };
    const hub = new EventHub({ store, clock: realClock, view: (_v, _e, shared) => shared(), checkPayloads: false, log: memoryLogger().log, turn: new Turn(), onRollback: () => {}, shareKey: () => null, prepare });
    await hub.start();
    const seqs: number[] = [];
    hub.listenAll((ev) => seqs.push(ev.seq));
    const reads: number[] = [];
    const eventsAfter = store.eventsAfter.bind(store);
    store.eventsAfter = (after, limit) => (reads.push(after), eventsAfter(after, limit));
    await hub.commit((tx) => tx.emit('session.updated', { session: session('told') }, { sessionKey: 'told' }), 'told');
    const answered = new Promise<'answered'>((ok) => hub.whenDurable(() => ok('answered')));
    void hub.settle();
    await inPrepare;
    // The commit's answer came meanwhile (and put its events back); then the told run goes out.
    await new Promise<void>((ok) => setImmediate(ok));
    release();
    // Not after a read of a gap that is none (the while a gap waits for its notification).
    expect(await answered).toBe('answered');
    expect(reads).toEqual([]);
    expect(seqs).toEqual([1]);
    hub.stopListening();
  });

  it("[D5][D2] another gateway's commit between two of its own arrives with its notification: every event goes out once, in seq order, none read back", async () => {
    expect(await mixed((round) => `theirs-${round}`)).toEqual([]);
  });

  it("[D5][D2] another gateway's commit too large for its notification (PostgreSQL takes 8,000 bytes) is read from the database, in seq order", async () => {
    const reads = await mixed((round) => (round % 2 === 0 ? 'ü'.repeat(4_000) + round : `theirs-${round}`));
    // Rounds 0, 2 and 4 need a read; on a busy machine one read may come late enough to cover two of them (the loop waits
    // for the other gateway's commit, not for this one to hear it), and a notification heard while a read is under way
    // may ask for one more. The titles above show every oversized commit arrived, in seq order.
    expect(reads.length).toBeGreaterThanOrEqual(1);
    expect(reads.length).toBeLessThanOrEqual(6);
  });
  it('[D5][L1] two lanes appending to the audit log (one lock for the log) with a snapshot asked between them: neither waits on the other', async () => {
    const { hub, store, a, b } = await setup();
    const asked = (questionId: string) => ({ atMs: 1_000, event: 'question.asked' as const, identity: 'agent', questionId });
    // Lane a's group takes the log's lock and stays open until its turn ends; lane b's append waits for that lock.
    const first = hub.commit(() => store.appendAudit(asked('qa')), a);
    const second = hub.commit(() => store.appendAudit(asked('qb')), b);
    // A snapshot (quiet) asked meanwhile must not hold lane a's commit behind lane b's wait for the lock.
    const snapshot = hub.quiet(() => 'snapshot');
    const [one, two, taken] = await Promise.all([first, second, snapshot]);
    expect([one.index, two.index].sort()).toEqual([0, 1]);
    expect(taken).toBe('snapshot');
  });
});
