import pg from 'pg';

/**
 * How many numbering commits the gateways on a schema made so far: each one's flush transaction adds one to its
 * connection's row of `askdock_flush` (store/postgres/numbering.ts), so the sum moves by one per commit that carried
 * events, whichever gateway made it. Read at both ends of a measured window, it gives the commits per round trip.
 */
export type CommitCounter = { read(): Promise<number>; close(): Promise<void> };

export const COMMITS_SQL = 'SELECT COALESCE(SUM(n), 0)::bigint AS n FROM askdock_flush';

export async function commitCounter(url: string): Promise<CommitCounter> {
  const client = new pg.Client({ connectionString: url, application_name: 'askdock-bench-commits' });
  await client.connect();
  return {
    async read() {
      const r = await client.query<{ n: string }>(COMMITS_SQL);
      return Number(r.rows[0].n);
    },
    close: () => client.end().catch(() => undefined),
  };
}
