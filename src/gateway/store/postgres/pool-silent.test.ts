import net from 'node:net';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testPostgresUrl } from '../../../testing/postgres.ts';
import { plainClientPerFile, sentBy } from '../../../testing/pool-round-trips.ts';
import { Postgres } from './pool.ts';
import { SeqRange } from './numbering.ts';
import { Transactions } from './transactions.ts';

// D2, D5: the pool when its network goes silent (nothing passes, nothing closes).
let client: pg.Client;
const plain = plainClientPerFile();
beforeAll(() => {
  client = plain.client;
});

/** A TCP proxy to the test server whose connections open so far can be made to go silent (nothing passes, nothing closes). */
async function silencingProxy(): Promise<{ port: number; silence(): void; close(): void }> {
  const target = new URL(testPostgresUrl());
  const pipes: { silent: boolean }[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    const pipe = { silent: false };
    pipes.push(pipe);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (d) => pipe.silent || upstream.write(d));
    upstream.on('data', (d) => pipe.silent || client.write(d));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    port: (server.address() as net.AddressInfo).port,
    silence: () => pipes.forEach((p) => (p.silent = true)),
    close: () => {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

describe('D2 hearing other gateways when the network goes silent', () => {
  it('[D2] a LISTEN connection that stops answering is replaced, its listeners told to catch up, and notifications are heard again', async () => {
    const proxy = await silencingProxy();
    const url = new URL(testPostgresUrl());
    url.port = String(proxy.port);
    const channel = `silent_${Date.now().toString(36)}`;
    const db = new Postgres(url.toString(), channel, { listenCheckMs: 200 });
    let listening = 0;
    const heard: string[] = [];
    db.onListening(() => listening++);
    db.onNotify((payload) => heard.push(payload));
    try {
      await vi.waitFor(() => expect(listening).toBeGreaterThan(0), { timeout: 30_000 });
      const before = listening;
      proxy.silence();
      await vi.waitFor(() => expect(listening).toBeGreaterThan(before), { timeout: 30_000 });
      await client.query(`SELECT pg_notify($1, 'heard')`, [channel]);
      await vi.waitFor(() => expect(heard).toContain('heard'), { timeout: 30_000 });
    } finally {
      await db.close();
      proxy.close();
    }
  }, 120_000);
});

describe('D5 a transaction whose network goes silent', () => {
  it('[D5][R3] a statement that gets no answer fails after the query timeout, its connection is dropped at once (nothing queued behind it waits a second timeout), and the pool goes on with a fresh one', async () => {
    const proxy = await silencingProxy();
    const url = new URL(testPostgresUrl());
    url.port = String(proxy.port);
    const timeout = 3_000;
    const db = new Postgres(url.toString(), null, { queryTimeoutMs: timeout });
    const failures: string[] = [];
    sentBy(db, failures);
    const tx = new Transactions(db, null, new SeqRange());
    const table = `silent_${Date.now().toString(36)}`;
    try {
      await db.query(`CREATE TABLE ${table} (n int)`);
      const failed = tx
        .transaction(async () => {
          await db.query(`INSERT INTO ${table} VALUES (1)`);
          proxy.silence();
          await db.query(`INSERT INTO ${table} VALUES (2)`);
        })
        .then(
          () => null,
          (err: Error) => err.message,
        );
      expect(await failed).toMatch(/timeout/i);
      // One timeout: the ROLLBACK that would have queued behind the silent statement (and timed out in turn) fails at
      // once on the dropped connection.
      expect(failures).toEqual([expect.stringMatching(/^INSERT .* VALUES \(2\): Query read timeout$/), expect.stringMatching(/^ROLLBACK: Connection terminated/)]);
      // Nothing of it was kept, and the next transaction (on a new connection) works.
      await proxy.close();
      const direct = new Postgres(testPostgresUrl(), null);
      try {
        expect((await direct.query(`SELECT COUNT(*)::int AS n FROM ${table}`)).rows[0].n).toBe(0);
      } finally {
        await direct.close();
      }
    } finally {
      await db.close();
      proxy.close();
      await client.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }, 60_000);
});
