import { describe, expect, it } from 'vitest';
import { pgClientRows } from './pgclient-rows.ts';
import type { PgClientFigures } from './pgclient.ts';

const figures = (pgMs: number, postgresMs: number): PgClientFigures => ({
  databaseRoundTrips: { ask: 3, answer: 3 },
  chains: 4,
  blocks: [
    { client: 'pg', roundTrips: 100, clientCpuMs: pgMs * 100, databaseCpuMs: 200 },
    { client: 'postgres', roundTrips: 100, clientCpuMs: postgresMs * 100, databaseCpuMs: 200 },
    { client: 'postgres', roundTrips: 100, clientCpuMs: postgresMs * 100, databaseCpuMs: 200 },
    { client: 'pg', roundTrips: 100, clientCpuMs: pgMs * 100, databaseCpuMs: 200 },
  ],
});

describe('[D5] the database client rows (issue 57 item 1)', () => {
  it('[D5] the engine keeps pg unless postgres spends more than 15 % less client CPU per round trip', () => {
    const kept = pgClientRows(figures(1, 0.9));
    expect(kept.map((r) => [r.measured, r.ratio, r.met])).toEqual([
      ['1.000', '', null],
      ['0.900', '0.90x', true],
    ]);
    expect(kept[1].baseline).toBe('pg 1.000; PostgreSQL 2.00 ms');
    const beaten = pgClientRows(figures(1, 0.8));
    expect(beaten[1]).toMatchObject({ ratio: '0.80x', met: false });
  });
});
