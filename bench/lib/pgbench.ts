import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PG_BIN } from '../../src/testing/postgres-server.ts';
import { meterCpu, type CpuSplit } from './cpu.ts';
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
  // Its backends live only while it runs: the CPU window is whole seconds of its progress reports (-P 1), after its
  // connections are made and before they close, and the transactions are those the reports count in that window.
  const child = spawn(bin, ['-b', 'tpcb-like', '-M', 'prepared', '-P', '1', '-c', String(clients), '-j', '2', '-T', String(seconds + 2), base], { env });
  let cpuDone: (() => CpuSplit) | null = null;
  let cpu: CpuSplit | null = null;
  let transactions = 0;
  let text = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
    for (let line = /progress: ([\d.]+) s, ([\d.]+) tps[^\n]*\n/.exec(text); line; line = /progress: ([\d.]+) s, ([\d.]+) tps[^\n]*\n/.exec(text)) {
      text = text.slice(line.index + line[0].length);
      const at = Math.round(Number(line[1]));
      if (at === 1) cpuDone = meterCpu([], schema.serverPid);
      else if (cpuDone && at <= seconds + 1) {
        transactions += Number(line[2]);
        if (at === seconds + 1) cpu = cpuDone();
      }
    }
  });
  child.stdout.resume();
  const code = await new Promise<number | null>((ok) => child.on('close', ok));
  if (code !== 0 || !cpu || transactions <= 0) throw new Error(`pgbench ended ${code} without ${seconds} s of progress reports: ${text.slice(-300)}`);
  const window: CpuSplit = cpu;
  transactions = Math.round(transactions);
  return {
    transactionsPerSec: Math.round((transactions * 1000) / window.elapsedMs),
    transactions,
    databaseCpuMsPerTransaction: window.databaseMs === null ? null : window.databaseMs / transactions,
    clients,
    seconds,
  };
}
