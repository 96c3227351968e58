import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** What run.ts keeps of one bench/gateway.ts run. */
export type GatewayRun = {
  operators: number;
  p50Ms?: number;
  p99Ms?: number;
  echoP50Ms?: number;
  echoP99Ms?: number;
  /** Throughput phase: round trips per second and the gateway thread's CPU per round trip. */
  roundTripsPerSec?: number;
  cpuUsPerRoundTrip?: number;
  chains?: number;
  peakRssMb?: number;
  error?: string;
};

/** Runs bench/gateway.ts as its own process (its gateway, its workers) and reads the JSON it saves. */
export async function runGatewayBench(root: string, operators: number, seconds: number): Promise<GatewayRun> {
  const json = join(root, 'bench', 'results', `gateway-${operators}.tmp`);
  rmSync(json, { force: true });
  const args = ['--import', 'tsx', 'bench/gateway.ts', '--operators', String(operators), '--seconds', String(seconds), '--json', json];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const code = await new Promise<number | null>((done) => child.on('exit', done));
  try {
    if (code !== 0) throw new Error(`exited ${code}: ${output.trim().split('\n').slice(-3).join(' | ')}`);
    const r = JSON.parse(readFileSync(json, 'utf8'));
    return {
      operators,
      p50Ms: r.sequential?.p50Ms,
      p99Ms: r.sequential?.p99Ms,
      echoP50Ms: r.echo?.p50Ms,
      echoP99Ms: r.echo?.p99Ms,
      roundTripsPerSec: r.concurrent?.roundTripsPerSec,
      cpuUsPerRoundTrip: Number.isFinite(r.concurrent?.gatewayCpuUsPerRoundTrip) ? r.concurrent.gatewayCpuUsPerRoundTrip : undefined,
      chains: r.chains,
      peakRssMb: r.peakRssMb,
    };
  } catch (err) {
    return { operators, error: `bench/gateway.ts --operators ${operators}: ${(err as Error).message}` };
  } finally {
    rmSync(json, { force: true });
  }
}
