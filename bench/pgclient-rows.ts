import { ratio } from './lib/stats.ts';
import { times, type Row } from './lib/table.ts';
import type { ClientName, PgClientFigures } from './pgclient.ts';

/** Issue 57 item 1: the engine keeps its client unless another spends clearly less CPU on the same round trip (> 15 %). */
export const CLIENT_SWITCH_BELOW = 0.85;

/** A client's CPU ms per question round trip over its blocks (this process's CPU, summed, over their round trips). */
export function clientMs(f: PgClientFigures, client: ClientName, of: 'clientCpuMs' | 'databaseCpuMs' = 'clientCpuMs'): number | null {
  const blocks = f.blocks.filter((b) => b.client === client);
  const trips = blocks.reduce((n, b) => n + b.roundTrips, 0);
  if (trips === 0 || blocks.some((b) => b[of] === null)) return null;
  return blocks.reduce((n, b) => n + (b[of] ?? 0), 0) / trips;
}

/** pg (the engine's client) beside `postgres` on the same statements; the verdict holds the engine's client to the cheapest. */
export function pgClientRows(f: PgClientFigures): Row[] {
  const section = `Database client (one question round trip's statements: ${f.databaseRoundTrips.ask} + ${f.databaseRoundTrips.answer} database round trips, ${f.chains} connections, clients taking turns)`;
  const base = clientMs(f, 'pg');
  const rows: Row[] = [];
  const each = (by: number[]) => by.map((x) => x.toFixed(2)).join(', ');
  for (const client of ['pg', 'postgres', 'postgres, bound, one batch'] as const) {
    const ms = clientMs(f, client);
    if (ms === null || base === null) continue;
    const blocks = f.blocks.filter((b) => b.client === client).map((b) => b.clientCpuMs / b.roundTrips);
    const db = clientMs(f, client, 'databaseCpuMs');
    const x = ratio(ms, base);
    const engine = client === 'pg';
    rows.push({
      section,
      figure: `${client}${engine ? ' (the engine\'s)' : ''}: client CPU ms per round trip (blocks ${each(blocks)})`,
      measured: ms.toFixed(3),
      baseline: engine ? `PostgreSQL ${db === null ? '-' : db.toFixed(2)} ms` : `pg ${base.toFixed(3)}; PostgreSQL ${db === null ? '-' : db.toFixed(2)} ms`,
      ratio: engine ? '' : times(x),
      aim: engine ? '' : `>= ${CLIENT_SWITCH_BELOW}x pg (else the engine should switch)`,
      met: engine ? null : Number.isFinite(x) ? x >= CLIENT_SWITCH_BELOW : false,
    });
  }
  return rows;
}
