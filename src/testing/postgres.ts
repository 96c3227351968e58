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
