import { afterEach, describe, expect, it } from 'vitest';
import { realClock } from './infra/clock.ts';
import { EventHub, RequestScope, laneOf } from './hub.ts';
import { memoryLogger } from './infra/logger.ts';
import { Turn } from './net/turn.ts';
import { openPostgresStore } from './store/postgres/store.ts';
import type { SharedStore } from './store/postgres/cluster.ts';
import { freshSchema, type TestSchema } from '../testing/postgres.ts';

const session = (key: string) => ({ key, title: key, createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 0 });
/** What `p` came to, or 'held' if it had not within a generous while (it is expected to be long settled). */
const settledOrHeld = <T>(p: Promise<T>) => Promise.race([p, new Promise<'held'>((ok) => setTimeout(() => ok('held'), 5000))]);

let schema: TestSchema | undefined;
let store: SharedStore | undefined;
afterEach(async () => {
  await store?.close();
  await schema?.drop();
  store = schema = undefined;
});

async function setup() {
  schema = await freshSchema('lanes');
  store = await openPostgresStore(schema.url);
  const hub = new EventHub(store, realClock, (_v, _e, shared) => shared(), false, memoryLogger().log, new Turn(), () => {});
  // Two sessions in different lanes.
  const a = 'session-a';
  let b = 'session-b0';
  for (let i = 1; laneOf(b, store.lanes) === laneOf(a, store.lanes); i++) b = `session-b${i}`;
  const emit = (key: string) => (tx: Parameters<Parameters<EventHub['commit']>[0]>[0]) =>
    tx.emit('session.updated', { session: session(key) }, { sessionKey: key });
  return { hub, store, a, b, emit };
}

/** A unit of session `key` that stays open (so its lane's group cannot commit) until `release`. */
function holdOpen(hub: EventHub, key: string, emit: (key: string) => (tx: Parameters<Parameters<EventHub['commit']>[0]>[0]) => Promise<number>) {
  let release!: () => void;
  const gate = new Promise<void>((ok) => (release = ok));
  const held = hub.commit(async (tx) => {
    await emit(key)(tx);
    await gate;
  }, key);
  return { held, release };
}

describe('D5 lanes on PostgreSQL', () => {
  it("[D5][R3] a request's answer waits for the group its own unit joined, not for another lane's group still open", async () => {
    const { hub, a, b, emit } = await setup();
    // Session a's unit stays open, so its lane's group cannot commit.
    const { held, release } = holdOpen(hub, a, emit);
    await new Promise((ok) => setImmediate(ok));

    const scope = new RequestScope();
    await hub.request(scope, () => Promise.resolve(), () => hub.commit(emit(b), b));
    let anyLane: boolean | null = null;
    hub.whenDurable((committed) => (anyLane = committed));
    expect(await settledOrHeld(new Promise<boolean>((ok) => hub.whenDurable(ok, scope)))).toBe(true);
    // Without a request, an answer waits for every open group.
    expect(anyLane).toBeNull();

    release();
    await held;
    await expect.poll(() => anyLane).toBe(true);
  });

  it("[D5] a request's reads wait for its client's earlier requests only; reads outside any request wait for every open group", async () => {
    const { hub, store, a, emit } = await setup();
    await store.createSession({ key: 'x', title: 'x', createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null });
    const { held, release } = holdOpen(hub, a, emit);
    await new Promise((ok) => setImmediate(ok));

    let earlierDone!: () => void;
    const earlier = new Promise<void>((ok) => (earlierDone = ok));
    const inRequest = hub.request(new RequestScope(), () => earlier, () => store.getSession('x'));
    const outside = store.getSession('x').then((s) => s?.key);
    expect(await settledOrHeld(Promise.race([inRequest.then(() => 'read'), new Promise((ok) => setTimeout(() => ok('waiting'), 200))]))).toBe('waiting');
    earlierDone();
    expect((await settledOrHeld(inRequest))).toMatchObject({ key: 'x' });
    let outsideRead = false;
    void outside.then(() => (outsideRead = true));
    await new Promise((ok) => setTimeout(ok, 100));
    expect(outsideRead).toBe(false);
    release();
    await held;
    expect(await outside).toBe('x');
  });

  it("[D5] what runs in a request's context once it was answered (e.g. a timer it armed) joins none of its groups and reads as code outside any request", async () => {
    const { hub, store, a, b, emit } = await setup();
    await store.createSession({ key: 'x', title: 'x', createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null });
    const scope = new RequestScope();
    scope.answered = true;
    const { held, release } = holdOpen(hub, a, emit);
    await new Promise((ok) => setImmediate(ok));
    // In the answered request's context: the unit joins nothing of it, and a read waits for the open group as outside.
    const inContext = hub.request(scope, () => Promise.resolve(), async () => {
      await hub.commit(emit(b), b);
      return store.getSession('x');
    });
    let read = false;
    void inContext.then(() => (read = true));
    await new Promise((ok) => setTimeout(ok, 200));
    expect(scope.groups.size).toBe(0);
    expect(read).toBe(false);
    release();
    await held;
    expect(await inContext).toMatchObject({ key: 'x' });
  });
});
