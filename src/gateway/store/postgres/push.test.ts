import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { postgresStorePerTest } from '../../../testing/postgres-store-per-test.ts';
import type { PushSubscriptionRow } from '../types.ts';
import { Postgres } from './pool.ts';
import { channelFor, schemaOf, type SharedStore } from './store.ts';

const postgres = postgresStorePerTest();
// Runs before the stores are closed (after-hooks run as a stack).
afterEach(() => vi.restoreAllMocks());

async function stores(n: number): Promise<SharedStore[]> {
  const all: SharedStore[] = [];
  for (let i = 0; i < n; i++) all.push((await postgres.open('push')).store);
  return all;
}

const sub = (endpoint: string, identity = 'op', createdAtMs = 1_000): PushSubscriptionRow => ({ endpoint, identity, tokenHash: 'token', p256dh: 'key', auth: 'auth', createdAtMs });
const endpoints = async (store: SharedStore, identity?: string) => (await store.listPushSubscriptions(identity)).map((s) => s.endpoint);

/**
 * Counts the statements reading the subscriptions that leave for the database outside a transaction; while `late` gives
 * a promise, what such a read returned reaches its caller only once that settled.
 */
function countReads(late: () => Promise<void> | null = () => null): () => number {
  let reads = 0;
  const query = pg.Pool.prototype.query as (...args: unknown[]) => Promise<unknown>;
  vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
    if (!text?.includes('FROM push_subscriptions')) return query.apply(this, args);
    reads++;
    const wait = late();
    return wait ? query.apply(this, args).then(async (r) => (await wait, r)) : query.apply(this, args);
  } as never);
  return () => reads;
}

/** Notifications of the stores opened from now on reach them only while `held` is false; the held ones follow on `release`. */
function slowNotifications() {
  const waiting: (() => void)[] = [];
  const gate = { held: false, release: () => ((gate.held = false), waiting.splice(0).forEach((deliver) => deliver())) };
  const onNotify = Postgres.prototype.onNotify;
  vi.spyOn(Postgres.prototype, 'onNotify').mockImplementation(function (this: Postgres, fn: (payload: string) => void) {
    return onNotify.call(this, (payload) => (gate.held ? waiting.push(() => fn(payload)) : fn(payload)));
  });
  return gate;
}

/** Once a read costs nothing (LISTEN answered, the list cached), `n` more cost nothing either. */
async function cachedAfterwards(store: SharedStore, reads: () => number): Promise<void> {
  await expect
    .poll(async () => {
      await store.listPushSubscriptions();
      const before = reads();
      await store.listPushSubscriptions();
      return reads() - before;
    })
    .toBe(0);
}

describe('U17/D5 push subscriptions cached per gateway on PostgreSQL', () => {
  it('[D5] repeated reads with no change cost no statement, for every identity; a change here is read at once', async () => {
    const [store] = await stores(1);
    const reads = countReads();
    await store.putPushSubscription(sub('https://push.example/a', 'op'));
    await store.putPushSubscription(sub('https://push.example/b', 'guest'));
    await cachedAfterwards(store, reads);
    const before = reads();
    for (let i = 0; i < 5; i++) {
      expect(await endpoints(store)).toEqual(['https://push.example/a', 'https://push.example/b']);
      expect(await endpoints(store, 'guest')).toEqual(['https://push.example/b']);
    }
    // Many at once share one read, too.
    await Promise.all(Array.from({ length: 5 }, () => store.listPushSubscriptions()));
    expect(reads() - before).toBe(0);

    // Its own change is seen by its next read, without waiting for its notification.
    await store.putPushSubscription(sub('https://push.example/c', 'op', 2_000));
    expect(await endpoints(store, 'op')).toEqual(['https://push.example/a', 'https://push.example/c']);
    expect(await store.deletePushSubscription('https://push.example/a', 'guest')).toBe(false);
    expect(await store.deletePushSubscription('https://push.example/a', 'op')).toBe(true);
    expect(await endpoints(store)).toEqual(['https://push.example/b', 'https://push.example/c']);
    // A list handed out is the caller's: changing it leaves the cached one alone.
    (await store.listPushSubscriptions()).length = 0;
    expect(await endpoints(store)).toHaveLength(2);
  });

  it('[U17] a subscription added or removed on one gateway reaches the cached list of another once its notification arrived', async () => {
    const [a, b] = await stores(2);
    const reads = countReads();
    await cachedAfterwards(b, reads);
    expect(await endpoints(b)).toEqual([]);

    await a.putPushSubscription(sub('https://push.example/a', 'op'));
    await expect.poll(() => endpoints(b)).toEqual(['https://push.example/a']);
    await a.putPushSubscription(sub('https://push.example/g', 'guest', 2_000));
    await expect.poll(() => endpoints(b, 'guest')).toEqual(['https://push.example/g']);
    expect(await a.deletePushSubscription('https://push.example/a')).toBe(true);
    expect(await a.deletePushSubscription('https://push.example/g')).toBe(true);
    await expect.poll(() => endpoints(b)).toEqual([]);
    // And the other way round.
    await b.putPushSubscription(sub('https://push.example/b', 'op'));
    await expect.poll(() => endpoints(a)).toEqual(['https://push.example/b']);
  });

  it('[U17] LISTEN reconnecting drops the cached list: a notification lost meanwhile costs nothing', async () => {
    const notices = slowNotifications();
    const [a, b] = await stores(2);
    const reads = countReads();
    await cachedAfterwards(b, reads);
    // b never hears of this change; then its listening connection breaks and comes back.
    notices.held = true;
    await a.putPushSubscription(sub('https://push.example/unheard'));
    expect(await endpoints(b)).toEqual([]);
    const url = await postgres.schema('push');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const ended = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'askdock-listen' AND query = $1`,
        [`LISTEN ${channelFor(schemaOf(url))}`],
      );
      expect(ended.rowCount).toBe(2);
    } finally {
      await admin.end();
    }
    await expect.poll(() => endpoints(b)).toEqual(['https://push.example/unheard']);
  });

  it('[D5] a read under way while another gateway changed the subscriptions does not keep what it read', async () => {
    let late: Promise<void> | null = null;
    let arrive!: () => void;
    const [a, b] = await stores(2);
    const reads = countReads(() => late);
    await cachedAfterwards(b, reads);
    const heard = vi.fn();
    b.onCommitted(heard);
    /** a changes the subscriptions, then commits an event: once b heard of that, it heard of the change (NOTIFYs come in commit order). */
    const change = async (endpoint: string) => {
      const told = heard.mock.calls.length;
      await a.putPushSubscription(sub(endpoint));
      await a.appendEvent({ event: 'session.updated', payload: {}, audience: { sessionKey: 's1' }, atMs: 1 });
      await expect.poll(() => heard.mock.calls.length).toBe(told + 1);
    };
    await change('https://push.example/first');

    // b reads the subscriptions (its cache was dropped), and what it read arrives only after a's next change was heard.
    late = new Promise<void>((ok) => (arrive = ok));
    const before = reads();
    const reading = endpoints(b);
    await expect.poll(() => reads() - before).toBe(1);
    late = null;
    await change('https://push.example/second');
    arrive();
    expect(await reading).toEqual(['https://push.example/first']);
    expect(await endpoints(b)).toEqual(['https://push.example/first', 'https://push.example/second']);
    // A notice of a change is no event seq: b's listener of committed events heard only the two events.
    expect(heard.mock.calls.every(([seq]) => typeof seq === 'number')).toBe(true);
  });

  it('[U17] a change in a transaction counts once it committed; rolled back, it is seen nowhere, also not by a read meanwhile', async () => {
    const notices = slowNotifications();
    const [a, b] = await stores(2);
    const reads = countReads();
    await cachedAfterwards(a, reads);
    await cachedAfterwards(b, reads);

    /** Puts `endpoint` in a transaction and holds it open while a read of what is committed runs elsewhere. */
    const meanwhile = async (endpoint: string, outcome: 'commit' | 'rollback') => {
      let written!: () => void;
      const put = new Promise<void>((ok) => (written = ok));
      let finish!: () => void;
      const held = new Promise<void>((ok) => (finish = ok));
      const tx = a.transaction(async () => {
        await a.putPushSubscription(sub(endpoint));
        written();
        await held;
        if (outcome === 'rollback') throw new Error('rolled back');
      });
      await put;
      // Not committed yet: a read of what is committed does not see it (and must not keep what it read).
      expect(await a.readCommitted(() => endpoints(a))).not.toContain(endpoint);
      expect(await endpoints(b)).not.toContain(endpoint);
      finish();
      if (outcome === 'rollback') await expect(tx).rejects.toThrow('rolled back');
      else await tx;
    };

    // Its own commit is read at once, not only once its notification arrived.
    notices.held = true;
    await meanwhile('https://push.example/kept', 'commit');
    expect(await endpoints(a)).toEqual(['https://push.example/kept']);
    notices.release();
    await expect.poll(() => endpoints(b)).toEqual(['https://push.example/kept']);

    await meanwhile('https://push.example/undone', 'rollback');
    expect(await endpoints(a)).toEqual(['https://push.example/kept']);
    await cachedAfterwards(a, reads);
    expect(await endpoints(a)).toEqual(['https://push.example/kept']);
    // b heard no notice of it (none is sent for a rollback) and read it nowhere; a deletion rolled back is kept, too.
    await a.putPushSubscription(sub('https://push.example/later'));
    await expect.poll(() => endpoints(b)).toEqual(['https://push.example/kept', 'https://push.example/later']);
    await expect(
      a.transaction(async () => {
        expect(await a.deletePushSubscription('https://push.example/kept')).toBe(true);
        expect(await endpoints(a)).toEqual(['https://push.example/later']);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await endpoints(a)).toEqual(['https://push.example/kept', 'https://push.example/later']);
  });
});
