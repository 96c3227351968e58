import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayConfig } from '../../src/gateway/config.ts';
import { spawnGateway } from '../../src/testing/gateway-child.ts';
import { createNodeClient } from '../../src/client/node.ts';
import type { GatewayClient } from '../../src/client/client.ts';

export type BenchGateway = {
  url: string;
  wsUrl: string;
  pid: number;
  operatorToken: string;
  agentToken: string;
  /** Resident memory of the gateway process, from /proc (Linux). */
  rssMb(): number;
  close(): Promise<void>;
};

export type BenchGatewayOptions = {
  /** Start on this directory's bench.db (kept on close) instead of a fresh one: a restart on seeded data. */
  dir?: string;
  /** Writes rows into the database file before the gateway opens it (seeding at scale without a round trip each). */
  seed?: (dbFile: string) => void | Promise<void>;
  /** Config keys beside the identities (the approval policy's `approvals`). */
  config?: Omit<Partial<GatewayConfig>, 'identities'>;
  /** Identities beside the operator and the agent (a second asker, whose pending questions count apart). */
  moreIdentities?: GatewayConfig['identities'];
};

/** An operator and an agent with fresh tokens, and a rate limit no benchmark reaches. */
export function benchIdentities(): { config: GatewayConfig; operatorToken: string; agentToken: string } {
  const operatorToken = `op-${randomBytes(12).toString('hex')}`;
  const agentToken = `agent-${randomBytes(12).toString('hex')}`;
  const config: GatewayConfig = {
    identities: [
      { id: 'operator', token: operatorToken, role: 'operator', scopes: ['operator.admin'] },
      { id: 'agent', token: agentToken, role: 'agent', scopes: ['agent.run'] },
    ],
    policy: { rateLimit: { burst: 1_000_000, perSecond: 1_000_000 } },
  };
  return { config, operatorToken, agentToken };
}

/** `askdock gateway` as a child on a fresh SQLite file, with known tokens and a rate limit no benchmark reaches. */
export async function startBenchGateway(opts: BenchGatewayOptions = {}): Promise<BenchGateway> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'askdock-bench-'));
  await opts.seed?.(join(dir, 'bench.db'));
  const { config, operatorToken, agentToken } = benchIdentities();
  const configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify({ ...config, ...opts.config, identities: [...config.identities, ...(opts.moreIdentities ?? [])] }));
  // BENCH_UI: the Control UI from another build's directory (an A/B of two builds in one sitting); dist/ otherwise.
  const ui = process.env.BENCH_UI ? ['--ui', process.env.BENCH_UI] : [];
  const child = await spawnGateway(['--port', '0', '--db', join(dir, 'bench.db'), '--config', configPath, ...ui]);
  const pid = child.proc.pid!;
  // A bench that dies half-way must not leave its gateway running.
  const killOnExit = () => child.proc.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    url: child.url,
    wsUrl: child.wsUrl,
    pid,
    operatorToken,
    agentToken,
    rssMb: () => rssMb(pid),
    close: async () => {
      process.off('exit', killOnExit);
      child.proc.kill('SIGTERM');
      await child.exit;
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? Number(kb) / 1024 : NaN;
}

/** A Node operator on the shared client, as the CLI and the TUI connect. */
export async function connectOperator(gateway: BenchGateway, name = 'bench-operator'): Promise<GatewayClient> {
  const client = createNodeClient({ url: gateway.url, token: gateway.operatorToken, client: { name, mode: 'cli' } });
  await client.start();
  return client;
}

/** Runs `task(i)` for i in 0..count-1 with at most `width` in flight: seeding thousands of rows without one round trip each. */
export async function inParallel(count: number, width: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, lane));
}
