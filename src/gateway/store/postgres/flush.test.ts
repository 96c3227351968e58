import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startThrowawayPostgres, type TestPostgres } from '../../../testing/postgres-server.ts';
import type { StoredEvent } from '../types.ts';
import { openPostgresStore, type SharedStore } from './store.ts';

/**
 * A server of its own: synchronous commits are held by naming a standby that never connects, which no other test could
 * live with. A commit held so is written and waits (`SyncRep`) exactly where a commit waits for its disk flush.
 */
let server: TestPostgres;
let admin: pg.Client;
beforeAll(async () => {
  server = await startThrowawayPostgres();
  admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
}, 120_000);
afterAll(async () => {
  await admin?.end();
  server?.stop();
});

const event = (atMs: number): Omit<StoredEvent, 'seq'> => ({ event: 'chat', payload: { atMs }, audience: { sessionKey: 's1' }, atMs });

/** Backends of the database waiting as a commit waits for its flush. */
async function waitingToFlush(): Promise<number> {
  const r = await admin.query(`SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE wait_event = 'SyncRep'`);
  return r.rows[0].n as number;
}

const seqs = async () => (await admin.query(`SELECT seq FROM events ORDER BY seq`)).rows.map((r) => Number(r.seq));

/** Holds every synchronous commit from now on; resolves once one is seen held (the setting reaches backends on reload). */
async function holdSynchronousCommits(): Promise<pg.Client> {
  await admin.query(`CREATE TABLE IF NOT EXISTS probe (n int)`);
  await admin.query(`ALTER SYSTEM SET synchronous_standby_names = 'askdock_never_there'`);
  await admin.query(`SELECT pg_reload_conf()`);
  const probe = new pg.Client({ connectionString: server.url });
  await probe.connect();
  for (;;) {
    let done = false;
    const write = probe.query(`INSERT INTO probe VALUES (1)`).then(() => (done = true));
    await vi.waitFor(async () => expect(done || (await waitingToFlush()) > 0).toBe(true), { timeout: 15_000, interval: 20 });
    if (!done) {
      void write.catch(() => {});
      return probe;
    }
  }
}

async function releaseSynchronousCommits(probe: pg.Client): Promise<void> {
  await admin.query(`ALTER SYSTEM RESET synchronous_standby_names`);
  await admin.query(`SELECT pg_reload_conf()`);
  await vi.waitFor(async () => expect(await waitingToFlush()).toBe(0), { timeout: 15_000, interval: 20 });
  await probe.end();
}

/**
 * `b`'s LISTEN connects in the background after it opens; a commit made before it listens reaches `b` by catching up, not
 * by its notification. A third store commits until `b` hears one (on a busy machine the connect can take seconds), and is
 * closed before the test's own commits, so none of its writes falls among theirs; what `b` heard is then forgotten.
 */
async function untilListening(heard: number[]): Promise<void> {
  const prober = await openPostgresStore(server.url);
  try {
    for (let attempt = 0; ; attempt++) {
      const seq = prober.settledSeq(await prober.transaction(async () => prober.appendEvent(event(900 + attempt))));
      try {
        await vi.waitFor(() => expect(heard).toContain(seq), { timeout: 1_000 });
        break;
      } catch (err) {
        if (attempt >= 30) throw err;
      }
    }
  } finally {
    await prober.close();
  }
  heard.length = 0;
}

describe('R3/D5 a commit is acknowledged, and told to other gateways, only once it is on disk', () => {
  it('[R3][D5] a commit that numbered events returns and notifies only after a synchronous commit behind it; the seq lock is free meanwhile; another gateway reading it waits for the disk too', async () => {
    const a: SharedStore = await openPostgresStore(server.url);
    const b: SharedStore = await openPostgresStore(server.url);
    const heard: number[] = [];
    const off = b.onCommitted((seq) => {
      if (seq !== null) heard.push(seq);
    });
    let probe: pg.Client | null = null;
    try {
      probe = await holdSynchronousCommits();
      let aDone = false;
      const aCommit = a.transaction(async () => a.appendEvent(event(1))).then(() => (aDone = true));
      await vi.waitFor(async () => expect(await waitingToFlush()).toBe(2), { timeout: 15_000, interval: 20 });
      // Visible to every reader, not yet on disk: not acknowledged, nobody told.
      expect(await seqs()).toEqual([1]);
      expect(aDone).toBe(false);
      // The seq row is not locked while that commit waits for the disk: another gateway's commit takes its numbers.
      let bDone = false;
      const bCommit = b.transaction(async () => b.appendEvent(event(2))).then(() => (bDone = true));
      await vi.waitFor(async () => expect(await waitingToFlush()).toBe(3), { timeout: 15_000, interval: 20 });
      expect(await seqs()).toEqual([1, 2]);
      // A gateway that reads them waits for them to be on disk before handing them to anyone.
      let read: StoredEvent[] | null = null;
      const reading = b.eventsAfter(0, 10).then((events) => (read = events));
      await vi.waitFor(async () => expect(await waitingToFlush()).toBe(4), { timeout: 15_000, interval: 20 });
      expect([aDone, bDone, read, heard]).toEqual([false, false, null, []]);

      await releaseSynchronousCommits(probe);
      probe = null;
      await Promise.all([aCommit, bCommit, reading]);
      expect(read!.map((e) => e.seq)).toEqual([1, 2]);
      await vi.waitFor(() => expect(heard.sort()).toEqual([1, 2]), { timeout: 15_000 });
    } finally {
      off();
      if (probe) await releaseSynchronousCommits(probe);
      await a.close();
      await b.close();
    }
  }, 60_000);

  it('[R3][D5] a commit whose flush fails after its numbering commit went through is still a commit: the flush is made again, the caller gets its seq, other gateways hear it', async () => {
    const a: SharedStore = await openPostgresStore(server.url);
    const b: SharedStore = await openPostgresStore(server.url);
    const heard: number[] = [];
    const off = b.onCommitted((seq) => {
      if (seq !== null) heard.push(seq);
    });
    await untilListening(heard);
    const before = await seqs();
    try {
      // The next write to askdock_flush, the one in the commit's round trip after its numbering commit, fails.
      await admin.query(`CREATE SEQUENCE flush_fails`);
      await admin.query(`CREATE FUNCTION flush_fails_once() RETURNS trigger LANGUAGE plpgsql AS $f$
        BEGIN IF nextval('flush_fails') = 1 THEN RAISE EXCEPTION 'the flush fails this once'; END IF; RETURN NEW; END $f$`);
      await admin.query(`CREATE TRIGGER flush_fails BEFORE INSERT OR UPDATE ON askdock_flush FOR EACH ROW EXECUTE FUNCTION flush_fails_once()`);
      const seq = await a.transaction(async () => a.appendEvent(event(3)));
      const settled = a.settledSeq(seq);
      expect(settled).toBeGreaterThan(0);
      expect(await seqs()).toEqual([...before, settled]);
      // The failed flush and the one made again.
      expect(Number((await admin.query(`SELECT last_value FROM flush_fails`)).rows[0].last_value)).toBe(2);
      await vi.waitFor(() => expect(heard).toEqual([settled]), { timeout: 15_000 });
      // The connection went back to the pool usable: the next commit goes as usual.
      const next = a.settledSeq(await a.transaction(async () => a.appendEvent(event(4))));
      expect(next).toBe(settled + 1);
    } finally {
      off();
      await admin.query(`DROP TRIGGER IF EXISTS flush_fails ON askdock_flush; DROP FUNCTION IF EXISTS flush_fails_once(); DROP SEQUENCE IF EXISTS flush_fails`);
      await a.close();
      await b.close();
    }
  }, 60_000);
});
