import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PG_BIN } from '../../src/testing/postgres-server.ts';
import { meterCpu } from './cpu.ts';
import type { RunSchema } from './postgres-schema.ts';

const run = promisify(execFile);

/** PostgreSQL's own write transaction (pgbench's built-in tpcb-like) on the bench's server: what one costs PostgreSQL. */
export type PgbenchFigures = {
  transactionsPerSec: number;
  transactions: number;
  /** PostgreSQL's processes' CPU per transaction (bench/lib/cpu.ts), null for a database the bench did not start. */
  databaseCpuMsPerTransaction: number | null;
  clients: number;
  seconds: number;
};

/** A server URL without its `options` (pgbench reads them from PGOPTIONS), and those options. */
function split(url: string): { base: string; options: string } {
  const u = new URL(url);
  const options = u.searchParams.get('options') ?? '';
  u.searchParams.delete('options');
  return { base: u.toString(), options };
}

/**
 * pgbench's tpcb-like transaction (BEGIN, three UPDATEs, a SELECT, an INSERT, END), prepared, `clients` at once for
 * `seconds`, in the schema given (its tables made by `pgbench -i` there); PostgreSQL's CPU read as the scale-out rows
 * read it.
 */
export async function measurePgbench(schema: RunSchema, clients: number, seconds: number): Promise<PgbenchFigures> {
  const { base, options } = split(schema.url);
  const env = { ...process.env, PGOPTIONS: options };
  const bin = join(PG_BIN, 'pgbench');
  await run(bin, ['-i', '-q', '-s', '4', base], { env });
  const cpuDone = meterCpu([], schema.serverPid);
  const { stdout } = await run(bin, ['-b', 'tpcb-like', '-M', 'prepared', '-c', String(clients), '-j', '2', '-T', String(seconds), base], { env });
  const cpu = cpuDone();
  const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? NaN);
  if (!Number.isFinite(transactions) || transactions <= 0) throw new Error(`pgbench printed no transaction count: ${stdout.slice(-300)}`);
  return {
    transactionsPerSec: Math.round((transactions * 1000) / cpu.elapsedMs),
    transactions,
    databaseCpuMsPerTransaction: cpu.databaseMs === null ? null : cpu.databaseMs / transactions,
    clients,
    seconds,
  };
}
