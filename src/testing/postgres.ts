import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export type TestSchema = {
  /** A `postgres://` URL whose connections work in this schema only. */
  url: string;
  drop(): Promise<void>;
};

/** The run's PostgreSQL (see postgres-global-setup.ts). */
export function testPostgresUrl(): string {
  return inject('postgresUrl');
}

function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

/** A fresh, empty schema on the run's server, so tests running side by side never see each other's rows. */
export async function freshSchema(prefix = 't'): Promise<TestSchema> {
  const base = testPostgresUrl();
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  return {
    url: withSearchPath(base, schema),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * How many connections have `table` (of the schema `url` works in) open and wait for a lock another one holds: a
 * statement that must wait is seen waiting, rather than not seen answering after a while.
 */
export async function waitingOnLocks(url: string, table: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query(`SELECT COUNT(DISTINCT pid)::int AS n FROM pg_locks WHERE relation = $1::regclass AND cardinality(pg_blocking_pids(pid)) > 0`, [table]);
    return (r.rows[0] as { n: number }).n;
  } finally {
    await c.end();
  }
}
