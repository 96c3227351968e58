import pg from 'pg';
import { afterEach, expect } from 'vitest';
import { realClock } from '../gateway/infra/clock.ts';
import { EventHub, RequestScope } from '../gateway/hub/hub.ts';
import { memoryLogger } from '../gateway/infra/logger.ts';
import { Turn } from '../gateway/hub/turn.ts';
import { channelFor, openPostgresStore, schemaOf } from '../gateway/store/postgres/store.ts';
import type { SharedStore } from '../gateway/store/postgres/cluster.ts';
import { freshSchema, type TestSchema } from './postgres.ts';

// Gateways on one PostgreSQL schema whose group commits the D5 tests (src/gateway/hub/group-join-*.test.ts) watch.

type Tx = Parameters<Parameters<EventHub['commit']>[0]>[0];
const session = (key: string) => ({ key, title: key, createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 0 });
export const turnEnds = () => new Promise((ok) => setImmediate(() => setImmediate(ok)));
export const until = async (ok: () => boolean) => {
  for (let i = 0; i < 2_000 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
};

/** Notices of commits dropped while `deaf`; `reconnected` tells the gateway some may have been missed (as LISTEN does). */
export type Hearing = { deaf: boolean; reconnected?: () => void };

/** For the tests of the calling file: each test's schema (from `two` or `newSchema`) and gateways, removed after it. */
export function groupJoinPerTest() {
  let schema: TestSchema | undefined;
  const stores: SharedStore[] = [];
  let watcher: pg.Client | undefined;
  afterEach(async () => {
    await watcher?.end();
    watcher = undefined;
    for (const store of stores.splice(0)) await store.close();
    await schema?.drop();
    schema = undefined;
  });

  /** A gateway (hub) on the test's schema whose lanes' commits are written down in `log`, in order with its answers. */
  let gateways = 0;
  async function gateway(base: string, hearing?: Hearing) {
    // Its connections are named, so its units waiting for the audit log's lock are told from other tests' (the lock's key
    // is one for every schema on the server).
    const url = new URL(base);
    const name = `groupjoin_${process.pid}_${++gateways}`;
    url.searchParams.set('application_name', name);
    const store = await openPostgresStore(url.toString());
    stores.push(store);
    if (hearing) {
      const on = store.onCommitted!.bind(store);
      store.onCommitted = (fn) => {
        hearing.reconnected = () => fn(null);
        return on((seq, told) => void (hearing.deaf || fn(seq, told)));
      };
    }
    const log: string[] = [];
    const lane = store.lane.bind(store);
    store.lane = (i) => {
      const l = lane(i);
      return { ...l, commitGroup: async () => void (await l.commitGroup(), log.push('commit')) };
    };
    const hub = new EventHub({ store, clock: realClock, view: (_v, _e, shared) => shared(), checkPayloads: false, log: memoryLogger().log, turn: new Turn(), onRollback: () => {} });
    await hub.start();
    const heard: string[] = [];
    hub.listenAll((ev) => heard.push(ev.event === 'session.updated' ? (ev.payload as { session: { title: string } }).session.title : ev.event));
    /**
     * A unit of session `key` in a request of its own that writes `name` (an audit entry first when `audited`, which takes
     * the log's lock), held open until `release` when `held`, throwing after its write when `fails`; `answered` once durable.
     */
    const unit = (name: string, o: { key?: string; audited?: boolean; held?: boolean; fails?: boolean; write?: () => Promise<unknown> } = {}) => {
      const key = o.key ?? 'session-a';
      let release!: () => void;
      const gate = o.held ? new Promise<void>((ok) => (release = ok)) : Promise.resolve();
      let appending = false;
      let entered!: () => void;
      const wrote = new Promise<void>((ok) => (entered = ok));
      const scope = new RequestScope();
      const ran = hub.request(scope, () => Promise.resolve(), () =>
        hub.commit(async (tx: Tx) => {
          appending = o.audited === true;
          if (o.audited) await store.appendAuditUnread({ atMs: 1_000, event: 'question.asked', identity: name });
          await o.write?.();
          await tx.emit('session.updated', { session: { ...session(key), title: name } }, { sessionKey: key });
          entered();
          await gate;
          if (o.fails) throw new Error(`${name} fails`);
        }, key),
      );
      const answered = ran.then(() => {
        scope.finish();
        return new Promise<boolean>((ok) => hub.whenDurable(ok, scope));
      }).then((kept) => (log.push(`answer ${name}`), kept));
      return { release, ran, answered, wrote, appending: () => appending };
    };
    return { name, hub, store, log, heard, unit, commits: () => log.filter((l) => l === 'commit').length };
  }

  /**
   * Returns once `unit` asked for the audit log's lock and the database has a transaction of its gateway (`name`) waiting
   * for it (other test files share the server's advisory locks: only this gateway's connections count).
   */
  async function waitsForTheLock(url: string, unit: { appending: () => boolean }, name: string) {
    await until(unit.appending);
    if (!watcher) {
      watcher = new pg.Client({ connectionString: url });
      await watcher.connect();
    }
    const sql = `SELECT COUNT(*) AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND NOT l.granted AND a.application_name = $1`;
    const waiting = async () => Number((await watcher!.query(sql, [name])).rows[0].n);
    for (let i = 0; i < 2_000 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await waiting()).toBeGreaterThan(0);
    await turnEnds();
  }

  /**
   * Runs `fn` (`pg_cancel_backend`, as a lock_timeout would cancel it; `pg_terminate_backend`) on gateway `name`'s one
   * transaction waiting for a lock.
   */
  async function onLockWaiter(fn: 'pg_cancel_backend' | 'pg_terminate_backend', name: string) {
    const admin = new pg.Client({ connectionString: schema!.url });
    await admin.connect();
    try {
      const sql = `SELECT ${fn}(pid) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`;
      expect((await admin.query(sql, [name])).rowCount).toBe(1);
    } finally {
      await admin.end();
    }
  }

  type Gateway = Awaited<ReturnType<typeof gateway>>;

  /**
   * A unit of `owner`'s (session-x's lane) holds the audit log's lock; on `y` `first` waits for it and `second` is asked for
   * after that turn's end. Returns how many commits `y` made from the lock's release until all three were answered kept.
   */
  async function waitForLockThenOne(owner: Gateway, y: Gateway): Promise<number> {
    const holder = owner.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    const first = y.unit('first', { audited: true });
    await waitsForTheLock(schema!.url, first, y.name);
    const second = y.unit('second');
    await turnEnds();
    const before = y.log.length;
    holder.release();
    expect(await Promise.all([holder.answered, first.answered, second.answered])).toEqual([true, true, true]);
    return y.log.slice(before).filter((l) => l === 'commit').length;
  }

  /** Ends the LISTEN connections on the test's schema and returns once `y`'s came back (its notices may have been missed). */
  async function listenReconnects(y: Gateway): Promise<void> {
    let back = 0;
    const off = y.store.onCommitted!((seq) => void (seq === null && back++));
    const admin = new pg.Client({ connectionString: schema!.url });
    await admin.connect();
    try {
      const sql = `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1`;
      let ended = 0;
      for (let i = 0; i < 2_000 && ended === 0; i++) ended = (await admin.query(sql, [`LISTEN ${channelFor(schemaOf(schema!.url))}`])).rowCount ?? 0;
      expect(ended).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await until(() => back > 0);
    off();
  }

  /** Two gateways on one database, the second having heard a commit of the first's. */
  async function two() {
    schema = await freshSchema('groupjoin');
    const x = await gateway(schema.url);
    const y = await gateway(schema.url);
    const hello = x.unit('hello', { key: 'session-x' });
    await hello.answered;
    await until(() => y.heard.includes('hello'));
    return { x, y };
  }

  /** A schema of its own for the test, removed after it. */
  async function newSchema(): Promise<TestSchema> {
    schema = await freshSchema('groupjoin');
    return schema;
  }
  const schemaUrl = () => schema!.url;
  return { gateway, two, newSchema, schemaUrl, waitsForTheLock, onLockWaiter, waitForLockThenOne, listenReconnects };
}
