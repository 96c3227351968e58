import pg from 'pg';
import { ContextSlot } from '../../infra/context.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPostgresUrl } from '../../../testing/postgres.ts';
import { SeqRange } from './numbering.ts';
import { Postgres } from './pool.ts';
import { pgQueries, type PgQueries } from './queries.ts';
import { Transactions } from './transactions.ts';

/** A parameter pg cannot send (its JSON never ends): the statement fails as it is written to the connection. */
const unsendable: Record<string, unknown> = {};
unsendable.self = unsendable;

let admin: pg.Client;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: testPostgresUrl() });
  await admin.connect();
});
afterAll(() => admin.end());

/** A pool of its own and one lane's transactions over it, closed once `fn` ends. */
async function withLane(fn: (t: Transactions, q: PgQueries['q']) => Promise<void>): Promise<void> {
  const db = new Postgres(testPostgresUrl(), null);
  const t = new Transactions(db, null, new SeqRange());
  try {
    await fn(t, pgQueries(db, [t], new ContextSlot('unwaited')).q);
  } finally {
    await db.close();
  }
}

const failure = (p: Promise<unknown>) => p.then(() => 'kept', (err: unknown) => (err instanceof Error ? 'failed' : 'thrown non-error'));

describe('[D5] a statement inside a transaction that cannot be answered fails its caller, never hangs it', () => {
  it('[D5] one whose parameter cannot be sent fails its unit (alone, in a batch of reads, guarded); the lane goes on', () =>
    withLane(async (t, q) => {
      const ways = [
        () => q('SELECT $1::text AS a', [unsendable]),
        () => Promise.all([q('SELECT 2 AS two'), q('SELECT $1::text AS a', [unsendable])]),
        () => q('SELECT $1::text AS a', [unsendable], true),
      ];
      for (const way of ways) {
        expect(await failure(t.transaction(async () => void (await way())))).toBe('failed');
        expect((await t.transaction(() => q('SELECT 1 AS one'))).rows).toEqual([{ one: 1 }]);
      }
    }));

  for (const guard of [false, true])
    it(`[D5][R3] one under way when the database ends its connection (${guard ? 'guarded' : 'plain'}) fails its unit; the group cannot be kept and the lane goes on`, { timeout: 60_000 }, () =>
      withLane(async (t, q) => {
        await t.beginGroup();
        const unit = t.transaction(async () => {
          const pid = Number((await q('SELECT pg_backend_pid() AS pid')).rows[0].pid);
          const sleeping = q(`SELECT pg_sleep(60) AS slept`, [], guard);
          // It fails as the connection ends, which may be before the await below: heard at once, thrown there all the same.
          sleeping.catch(() => undefined);
          await expect
            .poll(async () => (await admin.query(`SELECT state, query FROM pg_stat_activity WHERE pid = $1`, [pid])).rows[0]?.query ?? '', { timeout: 30_000 })
            .toContain('pg_sleep');
          await admin.query('SELECT pg_terminate_backend($1)', [pid]);
          await sleeping;
        });
        expect(await failure(unit)).toBe('failed');
        expect(t.doomed()).toBe(true);
        expect(await failure(t.transaction(() => q('SELECT 1 AS one')))).toBe('failed');
        expect(await failure(t.commitGroup())).toBe('failed');
        await t.rollbackGroup();
        expect((await t.transaction(() => q('SELECT 1 AS one'))).rows).toEqual([{ one: 1 }]);
      }));

  it('[D5][R3] a batch of reads sent after the database ended the connection fails, each read of it', { timeout: 60_000 }, () =>
    withLane(async (t, q) => {
      let reads: string[] = [];
      const unit = t.transaction(async () => {
        const pid = Number((await q('SELECT pg_backend_pid() AS pid')).rows[0].pid);
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        await expect.poll(async () => (await admin.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1`, [pid])).rowCount, { timeout: 30_000 }).toBe(0);
        reads = await Promise.all([failure(q('SELECT 1')), failure(q('SELECT 2'))]);
      });
      // Nothing of it can be committed either.
      expect(await failure(unit)).toBe('failed');
      expect(reads).toEqual(['failed', 'failed']);
      expect((await t.transaction(() => q('SELECT 1 AS one'))).rows).toEqual([{ one: 1 }]);
    }));
});

describe('[D5] two nested transactions run side by side in one transaction', () => {
  it('[D5] one that fails before sending anything, beside one that sends nothing: the enclosing transaction reads on and commits', () =>
    withLane(async (t, q) => {
      const outcome = await t.transaction(async () => {
        const units = await Promise.allSettled([
          t.transaction(async () => {
            throw new Error('refused before any statement');
          }),
          t.transaction(async () => 'nothing to send'),
        ]);
        return [units.map((u) => u.status), (await q('SELECT 1 AS one')).rows];
      });
      expect(outcome).toEqual([['rejected', 'fulfilled'], [{ one: 1 }]]);
    }));
});
