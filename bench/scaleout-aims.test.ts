import { describe, expect, it } from 'vitest';
import { commitsRow, databaseShareRows, gatewayCpuRows, projectedRoundTripsPerSec, projectionRow } from './scaleout-aims.ts';
import type { ScaleoutFigures, ScaleoutRow } from './scaleout.ts';

const summary = { n: 0, p50: 0, p99: 0, max: 0, mean: 0 } as unknown as ScaleoutRow['roundTrip'];
const row = (gateways: number, gatewaysMs: number, databaseMs: number, store: ScaleoutRow['store'] = 'postgres', delayMs = 0): ScaleoutRow => ({
  setup: `${gateways} gateways`,
  store,
  gateways,
  delayMs,
  roundTripsPerSec: 100,
  roundTrip: summary,
  healthz: summary,
  // 100 round trips/s for 2 s: 200 round trips.
  cpu: { gatewaysMs: gatewaysMs * 200, databaseMs: databaseMs * 200, benchMs: 0, machineBusyMs: null, elapsedMs: 2000, cores: 2 },
});

describe('[D5] issue 57 scale-out aims', () => {
  it('[D5] the projection is bound by whichever of gateways and database runs out of cores first', () => {
    // 3 gateways at 3 ms summed: 1,000/s; PostgreSQL at 2 ms on four cores: 2,000/s.
    expect(projectedRoundTripsPerSec(3, 3, 2)).toBe(1000);
    // PostgreSQL at 8 ms on four cores: 500/s.
    expect(projectedRoundTripsPerSec(3, 3, 8)).toBe(500);
    expect(projectionRow('s', row(3, 3, 2))?.measured).toBe('1000/s');
  });

  it('[D5] PostgreSQL CPU per round trip is held to 1.5x pgbench per transaction times two write transactions', () => {
    const figures = (databaseMs: number): ScaleoutFigures => ({
      chains: 32,
      seconds: 5,
      database: 'x',
      rows: [row(1, 1.5, databaseMs)],
      pgbench: { transactionsPerSec: 2000, transactions: 10000, databaseCpuMsPerTransaction: 0.4, clients: 16, seconds: 5 },
    });
    const within = databaseShareRows('s', figures(1.2)).at(-1)!;
    expect(within).toMatchObject({ measured: '1.200', ratio: '1.50x', met: true });
    const over = databaseShareRows('s', figures(1.3)).at(-1)!;
    expect(over.met).toBe(false);
    expect(databaseShareRows('s', { ...figures(1), pgbench: { error: 'no pgbench' } })[0]).toMatchObject({ measured: 'failed', met: false });
  });

  it('[D5] one PostgreSQL gateway is held to 2x one SQLite gateway\'s CPU per round trip, three summed to 1.3x one at each distance', () => {
    const figures = (onePg: number, threeLocal: number, threeAway: number): ScaleoutFigures => ({
      chains: 32,
      seconds: 5,
      database: 'x',
      rows: [row(1, 1.4, 0, 'sqlite'), row(1, onePg, 1.5), row(3, threeLocal, 2), row(1, 2, 2, 'postgres', 1), row(3, threeAway, 2, 'postgres', 1)],
    });
    const within = gatewayCpuRows('s', figures(2.8, 3.64, 2.6));
    expect(within.map((r) => [r.figure, r.measured, r.baseline, r.ratio, r.met])).toEqual([
      ['1 gateway, PostgreSQL: gateway CPU ms per round trip', '2.80', '1 SQLite gateway 1.40', '2.00x', true],
      ['3 gateways, PostgreSQL local: summed gateway CPU ms per round trip', '3.64', '1 gateway local 2.80', '1.30x', true],
      ['3 gateways, PostgreSQL 1 ms away: summed gateway CPU ms per round trip', '2.60', '1 gateway 1 ms away 2.00', '1.30x', true],
    ]);
    const over = gatewayCpuRows('s', figures(3.83, 7.66, 4));
    expect(over.map((r) => [r.ratio, r.met])).toEqual([
      ['2.74x', false],
      ['2.00x', false],
      ['2.00x', false],
    ]);
    // A row that failed (or a part not run) gives no verdict rather than one against nothing.
    const failed = figures(2.8, 3.64, 2.6);
    failed.rows[0] = { ...failed.rows[0], error: 'timed out' };
    expect(gatewayCpuRows('s', failed).map((r) => r.figure)).toEqual([
      '3 gateways, PostgreSQL local: summed gateway CPU ms per round trip',
      '3 gateways, PostgreSQL 1 ms away: summed gateway CPU ms per round trip',
    ]);
  });

  it('[D5] a PostgreSQL row tells its commits per round trip, all gateways\' together, and who follows each', () => {
    // 200 round trips in the window (row()): 300 commits.
    expect(commitsRow({ ...row(3, 3, 2), commits: 300 })).toMatchObject({ measured: '1.50', baseline: 'each followed by 2 other gateways' });
    expect(commitsRow({ ...row(1, 3, 2), commits: 40 })).toMatchObject({ measured: '0.20', baseline: '' });
    // Not counted (SQLite, or a database the bench cannot read): no row.
    expect(commitsRow(row(1, 1.4, 0, 'sqlite'))).toBeNull();
  });
});
