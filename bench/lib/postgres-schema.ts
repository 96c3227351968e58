import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startThrowawayPostgres } from '../../src/testing/postgres-server.ts';

/** A fresh schema for one soak or bench run: on the given database, or on a throwaway server started for it. */
export type RunSchema = {
  /** A `postgres://` URL whose connections work in the schema. */
  url: string;
  /** The same through the throwaway server's Unix socket, when this run started one: how a gateway on its machine connects. */
  socketUrl?: string;
  /** For the report: where it runs, password hidden. */
  where: string;
  /** The throwaway server's postmaster, when this run started one (bench/lib/cpu.ts reads its CPU time). */
  serverPid?: number;
  /** Drops the schema (or stops the throwaway server). */
  drop(): Promise<void>;
};

async function runSql(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function openRunSchema(given: string | undefined, prefix: string, opts: { fsync?: boolean } = {}): Promise<RunSchema> {
  const server = given ? null : await startThrowawayPostgres(opts);
  const base = given ?? server!.url;
  const schema = `${prefix}_${randomBytes(4).toString('hex')}`;
  try {
    await runSql(base, `CREATE SCHEMA ${schema}`);
  } catch (err) {
    server?.stop();
    throw err;
  }
  const inSchema = (u: string) => {
    const url = new URL(u);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return url.toString();
  };
  const shown = base.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
  return {
    url: inSchema(base),
    socketUrl: server ? inSchema(server.socketUrl) : undefined,
    where: `PostgreSQL ${server ? '(throwaway) ' : ''}${shown}, schema ${schema}`,
    serverPid: server?.pid,
    async drop() {
      if (server) server.stop();
      else await runSql(base, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}
