import { ratio } from './lib/stats.ts';
import { times, type Row } from './lib/table.ts';
import type { ScaleoutFigures, ScaleoutRow } from './scaleout.ts';

/**
 * Issue 57's aims on the database's share, against pgbench's write transaction in the same run. A question round trip
 * holds two durable write transactions: the ask and the answer, each acknowledged only once committed (R3).
 */
export const DATABASE_SHARE = { writeTransactionsPerRoundTrip: 2, overPgbench: 1.5 };
/**
 * Issue 57's aims on the gateways' own CPU per question round trip (items 1 and 3): one PostgreSQL gateway against one
 * SQLite gateway (what the database client and the shared-database work cost), and three PostgreSQL gateways summed
 * against one (whether a gateway more adds cost or only capacity), each at the same distance to the database. Every row
 * serves the same operators, agents and chains (scaleout-population.ts), so each ratio compares the same work.
 */
export const GATEWAY_CPU = { postgresOverSqlite: 2, threeOverOne: 1.3 };
/** The deployment the projection sizes: each gateway on a core of its own, PostgreSQL on four. */
export const PROJECTION = { coresPerGateway: 1, databaseCores: 4 };

/** The round trips of a row's measured window (0 where its CPU was not metered). */
const tripsOf = (r: ScaleoutRow) => (r.cpu ? (r.roundTripsPerSec * r.cpu.elapsedMs) / 1000 : 0);

/** CPU ms per round trip of a row's gateways (summed) and of its database, or null where not measured. */
export function perRoundTrip(r: ScaleoutRow): { gatewaysMs: number | null; databaseMs: number | null } {
  const trips = tripsOf(r);
  if (!r.cpu || trips <= 0) return { gatewaysMs: null, databaseMs: null };
  return {
    gatewaysMs: r.cpu.gatewaysMs === null ? null : r.cpu.gatewaysMs / trips,
    databaseMs: r.cpu.databaseMs === null ? null : r.cpu.databaseMs / trips,
  };
}

/**
 * Round trips/s where each of the row's gateways has a core of its own and PostgreSQL four: the lesser of what the
 * gateways' cores and the database's cores each allow at the measured cost per round trip (the formula: bench/FINDINGS.md, "PostgreSQL's share against pgbench" of issue 57).
 */
export function projectedRoundTripsPerSec(gateways: number, gatewaysMs: number, databaseMs: number): number {
  const byGateways = (gateways * PROJECTION.coresPerGateway * 1000) / gatewaysMs;
  const byDatabase = (PROJECTION.databaseCores * 1000) / databaseMs;
  return Math.round(Math.min(byGateways, byDatabase));
}

/** The pgbench baseline row, then the database-share aim on the one local gateway's row. */
export function databaseShareRows(section: string, f: ScaleoutFigures): Row[] {
  const p = f.pgbench;
  if (!p) return [];
  if ('error' in p) return [{ section, figure: 'pgbench tpcb-like (baseline)', measured: 'failed', baseline: p.error.slice(0, 80), ratio: '', aim: 'runs', met: false }];
  const perTxn = p.databaseCpuMsPerTransaction;
  const rows: Row[] = [
    {
      section,
      figure: `pgbench tpcb-like, ${p.clients} clients, ${p.seconds} s: PostgreSQL CPU ms per transaction`,
      measured: perTxn === null ? 'n/a' : perTxn.toFixed(3),
      baseline: `${p.transactionsPerSec} transactions/s`,
      ratio: '',
      aim: '',
      met: null,
    },
  ];
  const one = f.rows.find((r) => r.store === 'postgres' && r.gateways === 1 && r.delayMs === 0 && !r.error);
  const db = one ? perRoundTrip(one).databaseMs : null;
  if (perTxn === null || db === null) return rows;
  const floor = perTxn * DATABASE_SHARE.writeTransactionsPerRoundTrip;
  const x = ratio(db, floor);
  rows.push({
    section,
    figure: '1 gateway, PostgreSQL local: PostgreSQL CPU ms per round trip',
    measured: db.toFixed(3),
    baseline: `pgbench ${perTxn.toFixed(3)} x ${DATABASE_SHARE.writeTransactionsPerRoundTrip} write transactions = ${floor.toFixed(3)}`,
    ratio: times(x),
    aim: `<= ${DATABASE_SHARE.overPgbench}x pgbench x write transactions`,
    met: Number.isFinite(x) ? x <= DATABASE_SHARE.overPgbench : false,
  });
  return rows;
}

/**
 * The verdict rows of GATEWAY_CPU: one local PostgreSQL gateway's CPU ms per round trip against one SQLite gateway's;
 * at each distance, three PostgreSQL gateways' summed against one's.
 */
export function gatewayCpuRows(section: string, f: ScaleoutFigures): Row[] {
  const find = (store: string, gateways: number, delayMs: number) => f.rows.find((r) => r.store === store && r.gateways === gateways && r.delayMs === delayMs && !r.error);
  const gatewaysMs = (r: ScaleoutRow | undefined) => (r ? perRoundTrip(r).gatewaysMs : null);
  const rows: Row[] = [];
  const held = (figure: string, measured: number | null, baseline: string, base: number | null, aim: number, over: string) => {
    if (measured === null || base === null) return;
    const x = ratio(measured, base);
    rows.push({ section, figure, measured: measured.toFixed(2), baseline: `${baseline} ${base.toFixed(2)}`, ratio: times(x), aim: `<= ${aim}x ${over}`, met: Number.isFinite(x) ? x <= aim : false });
  };
  const sqlite = gatewaysMs(find('sqlite', 1, 0));
  held('1 gateway, PostgreSQL: gateway CPU ms per round trip', gatewaysMs(find('postgres', 1, 0)), '1 SQLite gateway', sqlite, GATEWAY_CPU.postgresOverSqlite, 'SQLite');
  for (const delayMs of [0, 1]) {
    const where = delayMs === 0 ? 'local' : `${delayMs} ms away`;
    const one = gatewaysMs(find('postgres', 1, delayMs));
    held(`3 gateways, PostgreSQL ${where}: summed gateway CPU ms per round trip`, gatewaysMs(find('postgres', 3, delayMs)), `1 gateway ${where}`, one, GATEWAY_CPU.threeOverOne, 'one gateway');
  }
  return rows;
}

/** Context under a PostgreSQL row: its projected capacity on the deployment PROJECTION describes. */
export function projectionRow(section: string, r: ScaleoutRow): Row | null {
  const { gatewaysMs, databaseMs } = perRoundTrip(r);
  if (r.store !== 'postgres' || gatewaysMs === null || databaseMs === null || gatewaysMs <= 0 || databaseMs <= 0) return null;
  const cores = `${r.gateways} gateway core${r.gateways > 1 ? 's' : ''} + ${PROJECTION.databaseCores} PostgreSQL`;
  return {
    section,
    figure: `  projected round trips/s, ${cores}: min(${r.gateways} x 1000 / gateways ms, ${PROJECTION.databaseCores} x 1000 / database ms)`,
    measured: `${projectedRoundTripsPerSec(r.gateways, gatewaysMs, databaseMs)}/s`,
    baseline: '',
    ratio: '',
    aim: '',
    met: null,
  };
}

/**
 * A PostgreSQL row's commits that carried events per round trip, all its gateways' together: each costs its gateway a
 * round trip, a statement and a notification, and every other gateway a notification to follow.
 */
export function commitsRow(r: ScaleoutRow): { figure: string; measured: string; baseline: string } | null {
  const trips = tripsOf(r);
  if (r.commits === undefined || trips <= 0) return null;
  const followed = r.gateways > 1 ? `each followed by ${r.gateways - 1} other gateways` : '';
  return { figure: '  commits per round trip, all gateways', measured: (r.commits / trips).toFixed(2), baseline: followed };
}
