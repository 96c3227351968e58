import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Postgres } from '../../src/gateway/store/postgres/pool.ts';
import { schemaOf } from '../../src/gateway/store/postgres/names.ts';
import { openRunSchema, type RunSchema } from './postgres-schema.ts';

// The scale-out rows with the database on this machine connect as docs/deploy.md tells such a gateway to: through the
// server's Unix socket, the socket directory as the URL's host (bench/FINDINGS.md section 63).
describe('[D1] a run schema on a throwaway server, reached through its Unix socket', () => {
  let schema: RunSchema;
  beforeAll(async () => {
    schema = await openRunSchema(undefined, 'askdock_socket', { fsync: false });
  }, 60_000);
  afterAll(() => schema?.drop());

  it('[D1] the socket URL names the socket directory and the run schema, and a gateway pool connects through the socket', async () => {
    expect(schema.socketUrl).toBeDefined();
    const url = schema.socketUrl!;
    expect(decodeURIComponent(new URL(url).hostname)).toMatch(/^\//);
    // The gateway takes its channel from the URL's schema, as over TCP.
    expect(schemaOf(url)).toBe(schemaOf(schema.url));
    const pg = new Postgres(url, null);
    try {
      const { rows } = await pg.query(`SELECT inet_server_addr() AS addr, current_schema() AS schema`);
      // A connection through a Unix socket has no server address; one over TCP has 127.0.0.1.
      expect(rows[0]).toEqual({ addr: null, schema: schemaOf(schema.url) });
    } finally {
      await pg.close();
    }
    const tcp = new Postgres(schema.url, null);
    try {
      expect((await tcp.query(`SELECT inet_server_addr()::text AS addr`)).rows[0].addr).toMatch(/^127\.0\.0\.1/);
    } finally {
      await tcp.close();
    }
  });
});
