import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testPostgresUrl } from '../../../testing/postgres.ts';
import { Postgres } from './pool.ts';

/** How long a measured round trip is held back, standing for a gateway waiting for its turn on a busy core. */
const BUSY_MS = 150;
/** The one round trip that did not wait. */
const NEAR_MS = 2;

describe('D5 lanes for the distance to the database, measured on a busy machine', () => {
  afterEach(() => vi.restoreAllMocks());

  it('[D5] the distance is the shortest round trip measured, so tries that waited for a core do not make a database next door look far', async () => {
    const db = new Postgres(testPostgresUrl(), null);
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    let selects = 0;
    // The measuring clock moves only as the statements below say, so what this machine's load adds counts for nothing.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    // Every empty statement but one (the second measured) takes BUSY_MS, as on a machine whose cores are taken.
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const result = query.apply(this, args);
      if (args[0] === 'SELECT 1') now += ++selects === 3 ? NEAR_MS : BUSY_MS;
      return result;
    } as typeof pg.Client.prototype.query);
    try {
      const ms = await db.roundTripMs();
      // The warm-up and at least five tries went out, of which only one did not wait.
      expect(selects).toBeGreaterThanOrEqual(6);
      expect(ms).toBe(NEAR_MS);
    } finally {
      await db.close();
    }
  }, 60_000);
});
