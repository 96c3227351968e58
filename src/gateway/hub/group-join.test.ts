import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { realClock } from '../infra/clock.ts';
import { EventHub, RequestScope } from './hub.ts';
import { FILL_UNITS } from './commit.ts';
import { memoryLogger } from '../infra/logger.ts';
import { Turn } from './turn.ts';
import { channelFor, openPostgresStore, schemaOf } from '../store/postgres/store.ts';
import type { SharedStore } from '../store/postgres/cluster.ts';
import { freshSchema, type TestSchema } from '../../testing/postgres.ts';
import { questionRecord } from '../../testing/question-record.ts';

type Tx = Parameters<Parameters<EventHub['commit']>[0]>[0];
const session = (key: string) => ({ key, title: key, createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 0 });
const turnEnds = () => new Promise((ok) => setImmediate(() => setImmediate(ok)));
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 2_000 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
};

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

/** Notices of commits dropped while `deaf`; `reconnected` tells the gateway some may have been missed (as LISTEN does). */
type Hearing = { deaf: boolean; reconnected?: () => void };

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

describe('D5 group commit on a shared database: a group waiting for the audit lock another gateway holds takes in more units', () => {
  it('[D5][R3][L1] units asked for while the group\'s unit waits for another gateway\'s audit lock join its one commit, answered after it', async () => {
    const { x, y } = await two();
    // The first gateway's group holds the audit log's lock until it commits.
    const holder = x.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    const first = y.unit('first', { audited: true });
    await waitsForTheLock(schema!.url, first, y.name);
    const second = y.unit('second');
    const third = y.unit('third');
    await turnEnds();
    const before = y.commits();
    holder.release();
    expect(await Promise.all([holder.answered, first.answered, second.answered, third.answered])).toEqual([true, true, true, true]);
    // One commit on the second gateway for the three (two on the code before: the waiting unit's group, then one for the
    // two asked for while it waited), and every answer after it (R3).
    expect(y.commits() - before).toBe(1);
    expect(y.log.slice(y.log.lastIndexOf('commit'))).toEqual(['commit', 'answer first', 'answer second', 'answer third']);
    await until(() => x.heard.includes('third'));
    expect(x.heard.filter((t) => ['first', 'second', 'third'].includes(t))).toEqual(['first', 'second', 'third']);
  });

  it(`[D5] at most ${FILL_UNITS} units join such a group: a stream of units cannot hold it open`, async () => {
    const { x, y } = await two();
    const holder = x.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    const first = y.unit('first', { audited: true });
    await waitsForTheLock(schema!.url, first, y.name);
    const more = Array.from({ length: FILL_UNITS + 2 }, (_, i) => y.unit(`more ${i}`));
    await turnEnds();
    const before = y.log.length;
    holder.release();
    expect(await Promise.all([first, ...more].map((u) => u.answered))).toEqual(Array(FILL_UNITS + 3).fill(true));
    // The first unit and FILL_UNITS joiners in one commit, the rest in the next.
    const after = y.log.slice(before);
    expect(after.filter((l) => l === 'commit')).toHaveLength(2);
    const second = after.indexOf('commit', after.indexOf('commit') + 1);
    expect(after.indexOf(`answer more ${FILL_UNITS - 1}`)).toBeLessThan(second);
    expect(after.indexOf(`answer more ${FILL_UNITS}`)).toBeGreaterThan(second);
  });

  it('[D5][R3] a gateway that heard no other gateway commit never holds a group open: each waiting unit commits as before', async () => {
    schema = await freshSchema('groupjoin');
    const one = await gateway(schema.url);
    // The lock held by this gateway's own group in another lane.
    const holder = one.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    const first = one.unit('first', { audited: true });
    await waitsForTheLock(schema.url, first, one.name);
    const second = one.unit('second');
    await turnEnds();
    holder.release();
    expect(await Promise.all([holder.answered, first.answered, second.answered])).toEqual([true, true, true]);
    // The waiting unit's group commits once it ended; the unit asked for after its turn's end goes into the next group.
    expect(one.commits()).toBe(3);
    expect(one.log.indexOf('answer first')).toBeLessThan(one.log.lastIndexOf('commit'));
    expect(one.log.indexOf('answer second')).toBeGreaterThan(one.log.lastIndexOf('commit'));
  });

  it('[D5] a gateway that committed since it heard another gateway commit holds no group open: each waiting unit commits as before', async () => {
    const { x, y } = await two();
    const mine = y.unit('mine', { key: 'session-b' });
    expect(await mine.answered).toBe(true);
    // The waiting unit's group, then the next one's (one commit for both when the group took the next unit in).
    expect(await waitForLockThenOne(x, y)).toBe(2);
  });

  it('[D5][L1] a gateway whose own other lane holds the audit lock holds no group open, though it heard another gateway commit', async () => {
    const { y } = await two();
    // The holder's group, the waiting unit's, then the next one's.
    expect(await waitForLockThenOne(y, y)).toBe(3);
  });

  it('[D5][D3] LISTEN reconnecting is no commit of another gateway: a gateway that heard none holds no group open', async () => {
    schema = await freshSchema('groupjoin');
    const x = await gateway(schema.url);
    const y = await gateway(schema.url);
    await listenReconnects(y);
    expect(await waitForLockThenOne(x, y)).toBe(2);
  });

  it('[D5][R3] units that would join a group whose connection is gone go into a group of their own, and are kept', async () => {
    schema = await freshSchema('groupjoin');
    const x = await gateway(schema.url);
    const y = await gateway(schema.url);
    await x.unit('hello', { key: 'session-x' }).answered;
    await until(() => y.heard.includes('hello'));
    const holder = x.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    const first = y.unit('first', { audited: true });
    first.answered.catch(() => {});
    await waitsForTheLock(schema.url, first, y.name);
    const second = y.unit('second');
    const third = y.unit('third');
    await turnEnds();
    await onLockWaiter('pg_terminate_backend', y.name);
    await expect(first.ran).rejects.toThrow();
    expect(await Promise.all([second.answered, third.answered])).toEqual([true, true]);
    holder.release();
    expect(await holder.answered).toBe(true);
    await until(() => x.heard.includes('third'));
  });

  it('[D5][R3] a unit asked for while a filling group is lost by a put-off write that failed goes into a group of its own, and is kept', async () => {
    const { x, y } = await two();
    await y.store.createSession({ key: 's1', title: 's1', createdBy: 'op', agentId: null, createdAtMs: 1_000, lastMessageAtMs: null });
    const admin = new pg.Client({ connectionString: schema!.url });
    await admin.connect();
    try {
      await admin.query(`ALTER TABLE questions ADD CONSTRAINT test_refused CHECK (id <> 'q-refused')`);
    } finally {
      await admin.end();
    }
    const insert = (id: string, idIsNew: boolean) => () => y.store.insertQuestion(questionRecord({ id, sessionKey: 's1' }), undefined, idIsNew);
    const holder = x.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    const first = y.unit('first', { audited: true });
    await waitsForTheLock(schema!.url, first, y.name);
    // Queued in the filling group's lane behind `first`: the first insert prepares its statement, the refused one is put
    // off past its unit and fails on the next unit's statement, which loses the group; `later` is already asked for.
    const units = [y.unit('prepares', { write: insert('q-0', true) }), y.unit('refused', { write: insert('q-refused', true) }), y.unit('carrier', { write: insert('q-after', false) })];
    for (const u of [first, ...units]) u.answered.catch(() => {});
    const later = y.unit('later');
    await turnEnds();
    holder.release();
    expect(await holder.answered).toBe(true);
    await expect(units[2].ran).rejects.toThrow(/a write put off by a unit that had returned failed/);
    expect(await Promise.all([first.answered, units[0].answered, units[1].answered])).toEqual([false, false, false]);
    // Not taken into the lost group (it would fail with it): the group is undone first and `later` begins the next.
    expect(await later.answered).toBe(true);
    expect((await y.store.listQuestions({})).map((q) => q.id)).toEqual([]);
    await until(() => x.heard.includes('later'));
  });

  it('[D5][R3] a unit that fails in a group taking units in is undone alone: the group goes on taking units in, one commit', async () => {
    const { x, y } = await two();
    const holder = x.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    // Asked for in one turn, whose end finds the first waiting for the lock: the group holds all three until they ended.
    const first = y.unit('first', { audited: true });
    const failing = y.unit('failing', { fails: true });
    failing.answered.catch(() => {});
    const held = y.unit('held', { held: true });
    await waitsForTheLock(schema!.url, first, y.name);
    const before = y.commits();
    holder.release();
    await expect(failing.ran).rejects.toThrow('failing fails');
    await held.wrote;
    // Asked for after the failure, while a unit the group holds still runs: it joins (the code before committed the
    // group behind the held unit and put this one in the next group: two commits).
    const later = y.unit('later');
    await turnEnds();
    held.release();
    expect(await Promise.all([holder.answered, first.answered, held.answered, later.answered])).toEqual([true, true, true, true]);
    expect(y.commits() - before).toBe(1);
    await until(() => x.heard.includes('later'));
    // The failed unit's write alone was undone.
    expect(x.heard.filter((t) => ['first', 'failing', 'held', 'later'].includes(t))).toEqual(['first', 'held', 'later']);
  });

  it('[D5][R3][L1] a unit refused the audit lock ends the filling: the units its group holds are answered without waiting for the lock again', async () => {
    const { x, y } = await two();
    const holder = x.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    const first = y.unit('first', { audited: true });
    first.answered.catch(() => {});
    const held = y.unit('held', { held: true });
    await waitsForTheLock(schema!.url, first, y.name);
    const before = y.commits();
    // Refused the lock (canceled, as lock_timeout cancels it): undone alone, and the group waits for no lock any more.
    await onLockWaiter('pg_cancel_backend', y.name);
    await expect(first.ran).rejects.toThrow();
    await held.wrote;
    // Asked for while the held unit runs; it waits for the lock, which the other gateway still holds.
    const later = y.unit('later', { audited: true });
    await turnEnds();
    held.release();
    await waitsForTheLock(schema!.url, later, y.name);
    // The held unit's group committed without it: its answer does not wait for the lock again (had the group taken
    // `later` in, it would wait for the other gateway's commit, or lock_timeout, with nothing committed yet).
    expect(y.commits() - before).toBe(1);
    expect(await held.answered).toBe(true);
    holder.release();
    expect(await Promise.all([holder.answered, later.answered])).toEqual([true, true]);
    expect(y.commits() - before).toBe(2);
    await until(() => x.heard.includes('later'));
    expect(x.heard.filter((t) => ['first', 'held', 'later'].includes(t))).toEqual(['held', 'later']);
  });

  it('[D5][D3] a commit of another gateway read after a LISTEN reconnect (its notice missed) counts as heard: the group takes units in', async () => {
    schema = await freshSchema('groupjoin');
    const x = await gateway(schema.url);
    const hearing: Hearing = { deaf: true };
    const y = await gateway(schema.url, hearing);
    await x.unit('hello', { key: 'session-x' }).answered;
    hearing.deaf = false;
    hearing.reconnected!();
    await until(() => y.heard.includes('hello'));
    expect(await waitForLockThenOne(x, y)).toBe(1);
  });
});
