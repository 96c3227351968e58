import { describe, expect, it } from 'vitest';
import { databaseShareRows, projectedRoundTripsPerSec, projectionRow } from './scaleout-aims.ts';
import type { ScaleoutFigures, ScaleoutRow } from './scaleout.ts';

const summary = { n: 0, p50: 0, p99: 0, max: 0, mean: 0 } as unknown as ScaleoutRow['roundTrip'];
const row = (gateways: number, gatewaysMs: number, databaseMs: number): ScaleoutRow => ({
  setup: `${gateways} gateways`,
  store: 'postgres',
  gateways,
  delayMs: 0,
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
});
