import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { GatewayClient } from '../src/client/client.ts';
import { createNodeClient } from '../src/client/node.ts';
import { spawnGateway, type GatewayChild } from '../src/testing/gateway-child.ts';
import { benchIdentities } from './lib/bench-gateway.ts';
import { HEALTH_CHECK_EVERY_MS, healthCheckTarget, placement, POPULATION } from './scaleout-population.ts';
import { delayingProxy } from '../src/testing/delaying-proxy.ts';
import { openRunSchema } from './lib/postgres-schema.ts';
import { summarize, type Summary } from './lib/stats.ts';
import { meterCpu, type CpuSplit } from './lib/cpu.ts';
import { commitCounter, type CommitCounter } from './lib/commit-count.ts';
import { measurePgbench, type PgbenchFigures } from './lib/pgbench.ts';

/** One setup under the same load: how many gateways, on which store, the database how far away (each way). */
export type ScaleoutRow = {
  setup: string;
  store: 'sqlite' | 'postgres';
  gateways: number;
  delayMs: number;
  roundTripsPerSec: number;
  roundTrip: Summary;
  healthz: Summary;
  /** Where the measured window's CPU went (bench/lib/cpu.ts): on a machine whose cores are all busy, that bounds the row. */
  cpu?: CpuSplit;
  /** PostgreSQL rows: the commits that carried events in the measured window, all gateways' (bench/lib/commit-count.ts). */
  commits?: number;
  error?: string;
};
export type ScaleoutFigures = {
  chains: number;
  /** The clients every row serves, whatever its gateways (scaleout-population.ts). */
  population?: { operators: number; agents: number };
  seconds: number;
  database: string;
  rows: ScaleoutRow[];
  /** The baseline of PostgreSQL's own share: pgbench's write transaction on a server started as the rows' are. */
  pgbench?: PgbenchFigures | { error: string };
};

const QUESTION = [{ id: 'env', header: 'Environment', question: 'Where to?', options: [{ label: 'Staging' }, { label: 'Production' }] }];
const CHAINS = 32;
const SECONDS = 5;
const WARMUP_MS = 1500;

/**
 * `CHAINS` question round trips at once for `SECONDS`, by the same clients in every row (scaleout-population.ts): chain
 * i's agent asks in a session of its own, and an operator answers it (on another gateway when there are several). A
 * round trip: question.request -> question.requested at the operator -> question.resolve -> the agent's
 * question.waitAnswer returns. Meanwhile GET /healthz is sampled every HEALTH_CHECK_EVERY_MS, of each gateway in turn.
 */
async function drive(
  gateways: GatewayChild[],
  operatorToken: string,
  agentToken: string,
  databasePid?: number,
  commits?: CommitCounter,
  profiles?: string[],
): Promise<Omit<ScaleoutRow, 'setup' | 'store' | 'gateways' | 'delayMs'>> {
  const clients: GatewayClient[] = [];
  const client = async (gateway: GatewayChild, token: string, name: string) => {
    const c = createNodeClient({ url: gateway.wsUrl, token, client: { name, mode: 'cli' } });
    clients.push(c);
    await c.start();
    return c;
  };
  try {
    const place = placement(gateways.length, CHAINS);
    const agents = await Promise.all(place.agents.map((g, k) => client(gateways[g], agentToken, `scaleout-agent-${k}`)));
    const operators = await Promise.all(place.operators.map((g, k) => client(gateways[g], operatorToken, `scaleout-operator-${k}`)));
    const mine = new Map<string, GatewayClient>();
    for (const op of operators)
      op.on('question.requested', ({ question }) => {
        if (question.sessionKey && mine.get(question.sessionKey) === op)
          void op.request('question.resolve', { id: question.id, answers: { env: ['Staging'] } }).catch(() => undefined);
      });
    const sessions: string[] = [];
    for (let i = 0; i < CHAINS; i++) {
      const { session } = await operators[place.chains[i].creator].request('sessions.create', { title: `scale-out ${i}`, agentId: 'agent' });
      sessions.push(session.key);
      mine.set(session.key, operators[place.chains[i].answerer]);
    }
    let measuring = false;
    let stop = false;
    const samples: number[] = [];
    let done = 0;
    const chain = async (i: number) => {
      const agent = agents[place.chains[i].agent];
      while (!stop) {
        const t0 = performance.now();
        const { id } = await agent.request('question.request', { sessionKey: sessions[i], questions: QUESTION });
        const result = await agent.request('question.waitAnswer', { id, timeoutMs: 60_000 });
        if (result.status !== 'answered') throw new Error(`round trip ended ${result.status}`);
        if (measuring && !stop) {
          samples.push(performance.now() - t0);
          done++;
        }
      }
    };
    const health: number[] = [];
    // The health checks are a client too: the same number in every row, taken by the gateways in turn.
    const probe = async () => {
      for (let k = 0; !stop; k++) {
        const g = gateways[healthCheckTarget(k, gateways.length)];
        const t0 = performance.now();
        const res = await fetch(`${g.url}/healthz`);
        await res.text();
        if (measuring) health.push(performance.now() - t0);
        await new Promise((ok) => setTimeout(ok, HEALTH_CHECK_EVERY_MS));
      }
    };
    const running = [...Array.from({ length: CHAINS }, (_, i) => chain(i)), probe()];
    const failed = Promise.all(running).then(() => undefined);
    const waitOr = (ms: number) => Promise.race([new Promise((ok) => setTimeout(ok, ms)), failed]);
    await waitOr(WARMUP_MS);
    measuring = true;
    // ASKDOCK_BENCH_PROFILE: each gateway's CPU profile over the measured window (bench/lib/profile-child.mjs).
    if (profiles) for (const g of gateways) g.proc.kill('SIGUSR2');
    const commitsBefore = await commits?.read();
    const cpuDone = meterCpu(
      gateways.map((g) => g.proc.pid ?? -1),
      databasePid,
    );
    const t0 = performance.now();
    await waitOr(SECONDS * 1000);
    const elapsed = (performance.now() - t0) / 1000;
    measuring = false;
    const cpu = cpuDone();
    if (profiles) for (const g of gateways) g.proc.kill('SIGUSR2');
    const commitsAfter = await commits?.read();
    stop = true;
    await failed;
    for (let waited = 0; profiles && !profiles.every((f) => existsSync(f)) && waited < 30_000; waited += 100) await new Promise((ok) => setTimeout(ok, 100));
    const committed = commitsBefore === undefined || commitsAfter === undefined ? {} : { commits: commitsAfter - commitsBefore };
    return { roundTripsPerSec: Math.round(done / elapsed), roundTrip: summarize(samples), healthz: summarize(health), cpu: { ...cpu, elapsedMs: elapsed * 1000 }, ...committed };
  } finally {
    for (const c of clients) c.close();
  }
}

/** Where ASKDOCK_BENCH_PROFILE puts a row's gateways' profiles: `<dir>/<setup>-<gateway>.cpuprofile`. */
function profilePaths(setup: string, count: number): string[] | undefined {
  const dir = process.env.ASKDOCK_BENCH_PROFILE;
  if (!dir) return undefined;
  mkdirSync(dir, { recursive: true });
  const name = setup.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  return Array.from({ length: count }, (_, i) => resolve(dir, `${name}-${i + 1}.cpuprofile`));
}

const PROFILER = fileURLToPath(new URL('./lib/profile-child.mjs', import.meta.url));

async function run(args: string[], count: number, profiles?: string[]): Promise<GatewayChild[]> {
  const gateways: GatewayChild[] = [];
  for (let i = 0; i < count; i++) {
    const env = profiles ? { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${PROFILER}`, ASKDOCK_PROFILE_OUT: profiles[i] } : undefined;
    if (profiles) rmSync(profiles[i], { force: true });
    gateways.push(await spawnGateway(args, 60_000, env));
  }
  return gateways;
}

async function stopAll(gateways: GatewayChild[]): Promise<void> {
  for (const g of gateways) g.proc.kill('SIGTERM');
  await Promise.all(gateways.map((g) => g.exit));
}

const NO_FIGURES = { roundTripsPerSec: 0, roundTrip: summarize([]), healthz: summarize([]) };

/**
 * D5: one SQLite gateway beside one and three PostgreSQL gateways, the database 0 ms and 1 ms away each way (a
 * delaying proxy), all under the same load, in one run. The throwaway server keeps fsync on, as a deployment does.
 */
export async function measureScaleout(step: (what: string) => void, only?: { sqlite: boolean; postgres: { gateways: number; delayMs: number }[]; pgbench: boolean }): Promise<ScaleoutFigures> {
  // A same-sitting A/B of a change runs the rows it moves only (FINDINGS); `npm run bench` runs them all.
  const runs = (gateways: number, delayMs: number) => !only || only.postgres.some((r) => r.gateways === gateways && r.delayMs === delayMs);
  const given = process.env.ASKDOCK_BENCH_POSTGRES_URL;
  const dir = mkdtempSync(join(tmpdir(), 'askdock-bench-scaleout-'));
  const { config, operatorToken, agentToken } = benchIdentities();
  const configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify(config));
  const rows: ScaleoutRow[] = [];
  const live = new Set<GatewayChild>();
  const killAll = () => live.forEach((g) => g.proc.kill('SIGKILL'));
  process.once('exit', killAll);
  const measure = async (row: Omit<ScaleoutRow, keyof typeof NO_FIGURES>, args: string[], databasePid?: number, databaseUrl?: string) => {
    step(`scale-out: ${row.setup}`);
    let gateways: GatewayChild[] = [];
    let commits: CommitCounter | undefined;
    try {
      const profiles = profilePaths(row.setup, row.gateways);
      gateways = await run(args, row.gateways, profiles);
      gateways.forEach((g) => live.add(g));
      // Connected once the gateways made the schema; read straight, not through the delaying proxy.
      if (databaseUrl) commits = await commitCounter(databaseUrl);
      rows.push({ ...row, ...(await drive(gateways, operatorToken, agentToken, databasePid, commits, profiles)) });
    } catch (err) {
      rows.push({ ...row, ...NO_FIGURES, error: (err as Error).message.slice(0, 200) });
    } finally {
      await commits?.close();
      await stopAll(gateways);
      gateways.forEach((g) => live.delete(g));
    }
  };
  let database = '';
  let pgbench: ScaleoutFigures['pgbench'];
  try {
    if (!only || only.pgbench) {
      step('scale-out: pgbench tpcb-like on a throwaway PostgreSQL like the rows\' (the baseline of PostgreSQL\'s share)');
      const bench = await openRunSchema(given, 'askdock_pgbench', { fsync: true });
      try {
        pgbench = await measurePgbench(bench, 16, SECONDS);
      } catch (err) {
        pgbench = { error: (err as Error).message.slice(0, 200) };
      } finally {
        await bench.drop().catch(() => undefined);
      }
    }
    if (!only || only.sqlite)
      await measure({ setup: '1 gateway, SQLite', store: 'sqlite', gateways: 1, delayMs: 0 }, ['--port', '0', '--db', join(dir, 'bench.db'), '--config', configPath]);
    for (const delayMs of [0, 1]) {
      for (const count of [1, 3]) {
        if (!runs(count, delayMs)) continue;
        // A schema of its own per row: every row starts on an empty database.
        const schema = await openRunSchema(given, 'askdock_scaleout', { fsync: true });
        database = given ? 'ASKDOCK_BENCH_POSTGRES_URL' : 'throwaway PostgreSQL, fsync on';
        // A database on this machine is reached through its Unix socket, as docs/deploy.md tells such a deployment to; one
        // 1 ms away over TCP, through the delaying proxy.
        const url = new URL(delayMs === 0 ? (schema.socketUrl ?? schema.url) : schema.url);
        const proxy = delayMs > 0 ? await delayingProxy(Number(url.port || 5432), delayMs) : null;
        if (proxy) url.port = String(proxy.port);
        try {
          const where = delayMs > 0 ? `, database ${delayMs} ms away each way` : ', database on this machine';
          await measure({ setup: `${count} gateway${count > 1 ? 's' : ''}, PostgreSQL${where}`, store: 'postgres', gateways: count, delayMs }, [
            '--port',
            '0',
            '--db',
            url.toString(),
            '--config',
            configPath,
          ], schema.serverPid, schema.url);
        } finally {
          await proxy?.close();
          await schema.drop().catch(() => undefined);
        }
      }
    }
  } finally {
    process.off('exit', killAll);
    killAll();
    rmSync(dir, { recursive: true, force: true });
  }
  return { chains: CHAINS, population: POPULATION, seconds: SECONDS, database, rows, pgbench };
}
