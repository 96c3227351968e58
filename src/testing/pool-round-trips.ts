import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { Postgres } from '../gateway/store/postgres/pool.ts';
import { testPostgresUrl } from './postgres.ts';

/** A plain client of the test server for the calling file's tests, connected before the first and ended after the last. */
export function plainClientPerFile(): { readonly client: pg.Client } {
  let client: pg.Client | undefined;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: testPostgresUrl() });
    await client.connect();
  });
  afterAll(() => client?.end());
  return {
    get client() {
      if (!client) throw new Error('plainClientPerFile: no client outside the tests');
      return client;
    },
  };
}

/** What each transaction's connection sends, one entry per round trip; `failed` gets `<statement>: <error>` for each that fails. */
export function sentBy(db: Postgres, failed: string[] = []): string[] {
  const sent: string[] = [];
  const connect = db.connect.bind(db);
  db.connect = async () => {
    const c = await connect();
    const query = c.query.bind(c) as (...args: unknown[]) => unknown;
    (c as unknown as { query: unknown }).query = (...args: unknown[]) => {
      sent.push(String(args[0]));
      const answer = query(...args);
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
      if (answer instanceof Promise) answer.catch((err: Error) => failed.push(`${text}: ${err.message}`));
      return answer;
    };
    return c;
  };
  return sent;
}
