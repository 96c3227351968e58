import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSchema, testPostgresUrl } from '../../../testing/postgres.ts';
import { delayingProxy } from '../../../testing/delaying-proxy.ts';
import { plainClientPerFile, sentBy } from '../../../testing/pool-round-trips.ts';
import { inline, lanesFor, MAX_LANES, Postgres } from './pool.ts';
import { openPostgresStore, type SharedStore } from './store.ts';
import { SeqRange } from './numbering.ts';
import { Transactions } from './transactions.ts';

// D5: statements sharing round trips, put off, guarded, and lanes by distance; a network gone silent is in pool-silent.test.ts.
let client: pg.Client;
const plain = plainClientPerFile();
beforeAll(() => {
  client = plain.client;
});

type Fixture = { db: Postgres; t: Transactions; table: string; sent: string[] };

/**
 * Runs `fn` with a pool of its own (what it sends in transactions recorded in `sent`), a transaction runner and a table
 * `<prefix>_<time>` made with `columns` and filled with `values` (SQL, or none); the table is dropped and the pool closed after.
 */
async function withTable(prefix: string, columns: string, values: string | null, fn: (f: Fixture) => Promise<void>): Promise<void> {
  const db = new Postgres(testPostgresUrl(), null);
  const sent = sentBy(db);
  const table = `${prefix}_${Date.now().toString(36)}`;
  try {
    await db.query(`CREATE TABLE ${table} (${columns})`);
    if (values) await db.query(`INSERT INTO ${table} VALUES ${values}`);
    await fn({ db, t: new Transactions(db, null, new SeqRange()), table, sent });
  } finally {
    await db.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await db.close();
  }
}

describe('D5 statements sharing a round trip', () => {
  it('[D5] parameters written in as literals read back as the same parameters sent apart would', async () => {
    const params = ["it's \\ a 'quote'", -5, 2 ** 53 - 1, 1.5, true, false, null, '', '$2 stays text', 'ünïcødé ✓'];
    const sql = `SELECT $1::text AS a, $2::bigint AS b, $3::bigint AS c, $4::float8 AS d, $5::boolean AS e, $6::boolean AS f,
      $7::text AS g, $8::text AS h, $9::text AS i, $10::text AS j, 10 - $2 AS k, $1 = $1 AS l`;
    const apart = (await client.query(sql, params)).rows;
    const text = inline(sql, params);
    expect(text).not.toBeNull();
    // Sent as one statement of several, after another.
    const together = (await client.query(`SELECT 1; ${text}`)) as unknown as pg.QueryResult[];
    expect(together[1].rows).toEqual(apart);
    expect(apart[0]).toMatchObject({ a: params[0], b: -5, k: 15, g: null, i: '$2 stays text' });
  });

  it('[D5] a parameter that is not a plain value, or one the statement names but lacks, keeps the statement apart', () => {
    expect(inline('SELECT $1', [[1, 2]])).toBeNull();
    expect(inline('SELECT $1', [{ a: 1 }])).toBeNull();
    expect(inline('SELECT $1', [Number.NaN])).toBeNull();
    expect(inline('SELECT $1, $2', ['x'])).toBeNull();
    expect(inline('SELECT 1', [])).toBe('SELECT 1');
  });
});

describe('D5 round trips of a transaction', () => {
  it("[D5] reads sent at once leave together with what the transaction put off, each prepared once per connection; a unit that sends nothing costs nothing; a failing batch undoes only its unit", async () => {
    const db = new Postgres(testPostgresUrl(), null);
    const sent = sentBy(db);
    const t = new Transactions(db, null, new SeqRange());
    try {
      await t.beginGroup();
      const read = await t.transaction(() => Promise.all([db.query('SELECT $1::int AS n', [1]), db.query('SELECT $1::text AS s', ["it's"])]));
      expect(read.map((r) => r.rows[0])).toEqual([{ n: 1 }, { s: "it's" }]);
      await t.transaction(async () => {});
      const failed = t.transaction(() => Promise.all([db.query('SELECT 1 AS one'), db.query('SELECT 1 / $1::int AS boom', [0])]));
      await expect(failed).rejects.toThrow(/division by zero/);
      expect((await t.transaction(() => db.query('SELECT $1::int + 1 AS two', [1]))).rows).toEqual([{ two: 2 }]);
      // Prepared once per connection: the next use only executes; a failed query's names are never used again.
      const again = await t.transaction(() => Promise.all([db.query('SELECT $1::int AS n', [2]), db.query('SELECT 1 AS one')]));
      expect(again.map((r) => r.rows[0])).toEqual([{ n: 2 }, { one: 1 }]);
      await t.commitGroup();
      expect(sent).toEqual([
        `BEGIN; SAVEPOINT askdock_sp0; PREPARE askdock_s0_0 AS SELECT $1::int AS n; EXECUTE askdock_s0_0('1'); PREPARE askdock_s1_1 AS SELECT $1::text AS s; EXECUTE askdock_s1_1(${client.escapeLiteral("it's")})`,
        "RELEASE SAVEPOINT askdock_sp0; SAVEPOINT askdock_sp2; PREPARE askdock_s2_2 AS SELECT 1 AS one; EXECUTE askdock_s2_2; PREPARE askdock_s3_3 AS SELECT 1 / $1::int AS boom; EXECUTE askdock_s3_3('0')",
        'ROLLBACK TO SAVEPOINT askdock_sp2; RELEASE SAVEPOINT askdock_sp2',
        "SAVEPOINT askdock_sp3; PREPARE askdock_s4_4 AS SELECT $1::int + 1 AS two; EXECUTE askdock_s4_4('1')",
        "RELEASE SAVEPOINT askdock_sp3; SAVEPOINT askdock_sp4; EXECUTE askdock_s0_0('2'); PREPARE askdock_s2_5 AS SELECT 1 AS one; EXECUTE askdock_s2_5",
        'RELEASE SAVEPOINT askdock_sp4; COMMIT',
      ]);
    } finally {
      await db.close();
    }
  });
});

describe('D5 a guarded statement among others', () => {
  it('[D5] statements sent before a guarded one reach the database first, and its failure undoes only itself', () =>
    withTable('guard_order', 'n int PRIMARY KEY, at serial', null, async ({ db, t, table }) => {
      await t.beginGroup();
      await t.transaction(() => Promise.all([db.query(`INSERT INTO ${table} (n) VALUES ($1)`, [1]), db.query(`INSERT INTO ${table} (n) VALUES ($1)`, [2], true)]));
      // A write sent just before a guarded insert that fails: the write stays, the failed insert alone is undone.
      const tried = await t.transaction(() =>
        Promise.allSettled([db.query(`INSERT INTO ${table} (n) VALUES ($1)`, [3]), db.query(`INSERT INTO ${table} (n) VALUES ($1)`, [1], true)]),
      );
      expect(tried.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
      await t.commitGroup();
      expect((await db.query(`SELECT n FROM ${table} ORDER BY at`)).rows).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    }));
});

describe('D5 a one-row write put off until the next statement', () => {
  const missing = () => new Error('no such row');
  const set = (table: string) => `UPDATE ${table} SET v = $2 WHERE n = $1`;

  it('[D5][R3] goes with the next statement once prepared, is undone with its unit, and is committed with the group', () =>
    withTable('behind', 'n int PRIMARY KEY, v text NOT NULL', "(1, '-'), (2, '-'), (3, '-')", async ({ db, t, table, sent }) => {
      await t.beginGroup();
      // The first use on the connection prepares the statement: a round trip of its own.
      await t.transaction(() => db.writeOne(set(table), [1, 'a'], missing));
      expect(sent).toHaveLength(1);
      // From then on it waits for the next statement.
      await t.transaction(() => db.writeOne(set(table), [2, 'b'], missing));
      const undone = t.transaction(async () => {
        await db.writeOne(set(table), [3, 'c'], missing);
        throw new Error('the unit fails');
      });
      await expect(undone).rejects.toThrow('the unit fails');
      expect(sent).toHaveLength(1);
      // Not visible outside the transaction before it commits.
      expect((await db.query(`SELECT v FROM ${table} WHERE n = 2`)).rows).toEqual([{ v: '-' }]);
      await t.commitGroup();
      expect(sent).toHaveLength(2);
      expect(sent[1]).toMatch(/^RELEASE SAVEPOINT askdock_sp0; SAVEPOINT askdock_sp1; EXECUTE askdock_s\d+_\d+\('2', 'b'\); RELEASE SAVEPOINT askdock_sp1; COMMIT$/);
      expect((await db.query(`SELECT n, v FROM ${table} ORDER BY n`)).rows).toEqual([
        { n: 1, v: 'a' },
        { n: 2, v: 'b' },
        { n: 3, v: '-' },
      ]);
    }));

  it('[D5][R3] a write put off resolves at once, so the statement its unit sends next joins the reads gathering in the same round trip', () =>
    withTable('behind', 'n int PRIMARY KEY, v text NOT NULL', "(1, '-'), (2, '-')", async ({ db, t, table, sent }) => {
      await t.beginGroup();
      await t.transaction(() => db.writeOne(set(table), [1, 'a'], missing));
      const before = sent.length;
      const read = await t.transaction(() =>
        Promise.all([
          (async () => {
            await db.writeOne(set(table), [2, 'b'], missing);
            return (await db.query(`SELECT v FROM ${table} WHERE n = 2`)).rows;
          })(),
          db.query('SELECT 2 AS b').then((r) => r.rows),
        ]),
      );
      const trips = sent.length - before;
      await t.commitGroup();
      expect(read).toEqual([[{ v: 'b' }], [{ b: 2 }]]);
      // One round trip carries the put-off write, the read sent beside it and the read sent after it.
      expect(trips).toBe(1);
    }));

  it('[D5][R3] one that finds no row fails the statement that carries it and the whole group, naming why; outside a transaction it throws at once', () =>
    withTable('behind_miss', 'n int PRIMARY KEY, v text NOT NULL', "(1, '-')", async ({ db, t, table }) => {
      await expect(db.writeOne(set(table), [9, 'x'], missing)).rejects.toThrow('no such row');
      await t.beginGroup();
      // Not prepared yet on this connection: sent at once, so the miss is its own unit's.
      await expect(t.transaction(() => db.writeOne(set(table), [9, 'x'], missing))).rejects.toThrow('no such row');
      await t.transaction(() => db.writeOne(set(table), [1, 'a'], missing));
      await t.transaction(() => db.writeOne(set(table), [9, 'x'], missing));
      await expect(t.commitGroup()).rejects.toThrow('store: a write sent with the commit changed no row');
      await t.rollbackGroup().catch(() => undefined);
      expect((await db.query(`SELECT n, v FROM ${table}`)).rows).toEqual([{ n: 1, v: '-' }]);
    }));
});

describe('D5 a group whose commit failed', () => {
  it('[D5][R3] is over at once: the next transaction is one of its own, and the rollback that follows the failure ends nothing of it', () =>
    withTable('failed_group', 'n int PRIMARY KEY, v text NOT NULL', "(1, '-')", async ({ db, t, table }) => {
      const set = `UPDATE ${table} SET v = $2 WHERE n = $1`;
      const missing = () => new Error('no such row');
      const turns = () => new Promise<void>((ok) => setImmediate(ok));
      await t.beginGroup();
      await t.transaction(() => db.writeOne(set, [1, 'a'], missing));
      await t.transaction(() => db.writeOne(set, [9, 'x'], missing));
      await expect(t.commitGroup()).rejects.toThrow('store: a write sent with the commit changed no row');
      let release!: () => void;
      const gate = new Promise<void>((ok) => (release = ok));
      const next = t.transaction(async () => {
        await db.writeOne(set, [1, 'b'], missing);
        await gate;
      });
      await t.rollbackGroup();
      let after = false;
      const later = t.transaction(async () => {
        after = true;
        await db.writeOne(set, [1, 'c'], missing);
      });
      for (let i = 0; i < 5; i++) await turns();
      // The rollback did not end the next transaction's turn: the one after it still waits.
      expect(after).toBe(false);
      release();
      await next;
      await later;
      expect(after).toBe(true);
      expect((await db.query(`SELECT v FROM ${table} WHERE n = 1`)).rows).toEqual([{ v: 'c' }]);
    }));
});

describe('D5 lanes for the distance to the database', () => {
  it('[D5] a near database gets few lanes (bigger groups, fewer commits), a far one up to the most, by the measured round trip', () => {
    expect([0, 0.1, 0.25, 0.3, 0.5, 1, 1.5, 2, 2.1, 40, Number.NaN].map(lanesFor)).toEqual([2, 2, 2, 3, 4, 8, 12, 16, 16, 16, 16]);
  });

  it('[D5] a gateway whose database is 1 ms away each way runs the most lanes', async () => {
    const schema = await freshSchema('lanes');
    const proxy = await delayingProxy(Number(new URL(schema.url).port), 1);
    const url = new URL(schema.url);
    url.port = String(proxy.port);
    let store: SharedStore | null = null;
    try {
      store = await openPostgresStore(url.toString());
      expect(store.lanes).toBe(MAX_LANES);
    } finally {
      await store?.close();
      await proxy.close();
      await schema.drop();
    }
  }, 60_000);
});
