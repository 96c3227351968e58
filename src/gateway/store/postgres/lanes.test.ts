import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testPostgresUrl } from '../../../testing/postgres.ts';
import { Postgres } from './pool.ts';

/** How long a measured round trip is held back, standing for a gateway waiting for its turn on a busy core. */
const BUSY_MS = 150;

describe('D5 lanes for the distance to the database, measured on a busy machine', () => {
  afterEach(() => vi.restoreAllMocks());

  it('[D5] the distance is the shortest round trip measured, so tries that waited for a core do not make a database next door look far', async () => {
    const db = new Postgres(testPostgresUrl(), null);
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    let selects = 0;
    // Every empty statement but one (the second measured) waits BUSY_MS first, as on a machine whose cores are taken.
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      if (args[0] === 'SELECT 1' && ++selects !== 3) return new Promise((ok) => setTimeout(ok, BUSY_MS)).then(() => query.apply(this, args));
      return query.apply(this, args);
    } as typeof pg.Client.prototype.query);
    try {
      const ms = await db.roundTripMs();
      // The warm-up and at least five tries went out, of which only one did not wait.
      expect(selects).toBeGreaterThanOrEqual(6);
      expect(ms).toBeLessThan(BUSY_MS);
    } finally {
      await db.close();
    }
  }, 60_000);
});
