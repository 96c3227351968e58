/**
 * Gateway benchmark (printed, not asserted): question round trips with 1 agent and N operator connections,
 * beside a bare `ws` echo round trip measured in the same run.
 *   node --import tsx bench/gateway.ts [--operators 50] [--seconds 4] [--chains 32] [--memory] [--only latency|throughput]
 *                                      [--json bench/results/gateway.json] [--profile FILE.cpuprofile] [--audit-entries N]
 * One round trip: agent question.request (in a session) -> question.requested at a subscribed operator -> question.resolve
 * -> the agent's question.waitAnswer returns. Two figures:
 *  - latency: one chain, each round trip after the last (the SDK's request -> waitAnswer), p50/p99 per round trip;
 *  - throughput: `--chains` chains at once on the same agent connection, one session each (Q11 allows one pending
 *    blocking question per session), round trips completed per second.
 * Threads: the gateway alone on the main thread; the agent, the answering operator and the echo client in a driver
 * worker; the other N-1 operators in a listener worker that counts question.requested without parsing JSON.
 * The answering operator connects last, so it is the last to be sent each question.
 * Set ASKDOCK_SYNC=FULL to measure with an fsync per commit.
 * `--profile` writes a CPU profile of the gateway thread during the throughput phase only, or with `--only latency`
 * the one-chain phase (not the warm-up, not the echo server, which runs on the same thread):
 * `node bench/profiles/categories.mjs FILE` sorts it.
 * `--audit-entries N` stores N audit entries before the gateway starts: a long-running gateway's log (L7's cost).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Session } from 'node:inspector';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import WebSocket, { WebSocketServer } from 'ws';
import { RawClient } from './lib/raw-client.ts';
import { type GatewayConfig } from '../src/gateway/config.ts';
import { startGateway } from '../src/gateway/gateway.ts';
import { boundHeapGrowth } from '../src/gateway/infra/heap-growth.ts';
import { openSqliteStore } from '../src/gateway/store/sqlite.ts';
import { createMemoryStore } from '../src/gateway/store/memory.ts';
import { createLogger } from '../src/gateway/infra/logger.ts';

type Phase = { count: number; elapsedMs: number; lat: number[] };

const OPERATOR_TOKEN = 'bench-operator-token-0123456789';
const AGENT_TOKEN = 'bench-agent-token-0123456789abc';
const QUESTION = [{ id: 'env', header: 'Environment', question: 'Where to?', options: [{ label: 'Staging' }, { label: 'Production' }] }];

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const round = (x: number, digits = 3) => Number(x.toFixed(digits));

/** Runs `chains` loops of `once` until `durationMs` is up; every completed call is one sample. */
async function timed(durationMs: number, chains: number, once: (chain: number) => Promise<void>): Promise<Phase> {
  const lat: number[] = [];
  const start = performance.now();
  const loop = async (chain: number) => {
    while (performance.now() - start < durationMs) {
      const t0 = performance.now();
      await once(chain);
      lat.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: chains }, (_, i) => loop(i)));
  return { count: lat.length, elapsedMs: performance.now() - start, lat: lat.sort((a, b) => a - b) };
}

/** Worker: the agent, the answering operator and the echo client; runs one phase per message from main. */
async function driver(): Promise<void> {
  const { url, chains } = workerData as { url: string; chains: number };
  const agent = await RawClient.connect(url, AGENT_TOKEN, 'agent', 'bench');
  const answerer = await RawClient.connect(url, OPERATOR_TOKEN, 'ui', 'bench');
  let seen = 0;
  answerer.onEvent = (f) => {
    if (f.event !== 'question.requested') return;
    seen++;
    answerer.send('question.resolve', { id: f.payload.question.id, answers: { env: ['Staging'] } });
  };
  const sessions: string[] = [];
  for (let i = 0; i < Math.max(1, chains); i++) sessions.push((await answerer.ok('sessions.create', { title: `bench ${i}` })).session.key);
  const roundTrip = async (chain: number) => {
    const asked = await agent.ok('question.request', { sessionKey: sessions[chain], questions: QUESTION });
    const answer = await agent.ok('question.waitAnswer', { id: asked.id });
    if (answer.status !== 'answered') throw new Error(`unexpected ${JSON.stringify(answer)}`);
  };
  parentPort!.postMessage({ ready: true });
  parentPort!.on('message', async (m: { phase: string; ms: number; echoUrl?: string }) => {
    seen = 0;
    let result: Phase;
    if (m.phase === 'sequential') result = await timed(m.ms, 1, roundTrip);
    else if (m.phase === 'concurrent') result = await timed(m.ms, chains, roundTrip);
    else result = await echo(m.echoUrl!, m.ms);
    parentPort!.postMessage({ ...result, seen });
    if (m.phase === 'echo') {
      agent.close();
      answerer.close();
      parentPort!.close();
    }
  });
}

async function echo(url: string, durationMs: number): Promise<Phase> {
  const ws = new WebSocket(url);
  await new Promise((ok) => ws.once('open', ok));
  const frame = JSON.stringify({ type: 'req', id: '1', method: 'question.resolve', params: { id: 'q_x', answers: { env: ['Staging'] } } });
  const once = () => new Promise<void>((ok) => (ws.once('message', () => ok()), ws.send(frame)));
  await timed(300, 1, once);
  const result = await timed(durationMs, 1, once);
  ws.close();
  return result;
}

/** Worker: N-1 operators that only count question.requested frames, so their cost stays off the gateway's budget. */
async function listeners(): Promise<void> {
  const { url, count } = workerData as { url: string; count: number };
  const needle = Buffer.from('"event":"question.requested"');
  const clients: RawClient[] = [];
  let seen = 0;
  for (let i = 0; i < count; i++) {
    const c = await RawClient.connect(url, OPERATOR_TOKEN, 'ui', 'bench');
    c.onRaw = (data) => void (data.indexOf(needle) !== -1 && seen++);
    clients.push(c);
  }
  parentPort!.postMessage({ ready: true });
  parentPort!.on('message', (m: string) => {
    if (m === 'reset') seen = 0;
    parentPort!.postMessage({ seen });
    if (m === 'stop') {
      for (const c of clients) c.close();
      parentPort!.close();
    }
  });
}

const THREAD_SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

/**
 * The gateway thread's own scheduler account (Linux), in ms: time it ran on a CPU, and time it was ready to run but
 * waited for one. CPU time does not grow when other processes take the cores, so it compares runs on a busy machine;
 * the wait tells how much they did.
 */
function gatewayThreadMs(): { ran: number; waited: number } | null {
  if (!existsSync(THREAD_SCHEDSTAT)) return null;
  const [ran, waited] = readFileSync(THREAD_SCHEDSTAT, 'utf8').split(' ').map(Number);
  return { ran: ran / 1e6, waited: waited / 1e6 };
}

/** The gateway thread's CPU profile from now until `stop`. */
async function startProfile(): Promise<{ stop: () => Promise<unknown> }> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((ok, fail) => session.post(method, params ?? {}, (err, r) => (err ? fail(err) : ok(r))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = await post('Profiler.stop');
      session.disconnect();
      return profile;
    },
  };
}

type BenchWorker = { ready: Promise<unknown>; ask: (m: unknown) => Promise<any> };

/** Replies come back in order, one per message sent (and one when the worker is ready). */
function startWorker(data: object): BenchWorker {
  // A worker cannot start from a .ts file on Node 20, so a small loader registers tsx first.
  const loader = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); });`;
  const worker = new Worker(loader, { eval: true, workerData: data });
  const replies: ((m: any) => void)[] = [];
  worker.on('message', (m) => replies.shift()?.(m));
  worker.on('error', (err) => {
    process.stderr.write(`bench worker failed: ${err.stack ?? err}\n`);
    process.exit(1);
  });
  const next = () => new Promise<any>((ok) => replies.push(ok));
  const ready = next();
  return { ready, ask: (m) => (worker.postMessage(m), next()) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      operators: { type: 'string', default: '50' },
      seconds: { type: 'string', default: '4' },
      chains: { type: 'string', default: '32' },
      memory: { type: 'boolean', default: false },
      only: { type: 'string' },
      json: { type: 'string', default: resolve(dirname(fileURLToPath(import.meta.url)), 'results/gateway.json') },
      profile: { type: 'string' },
      'audit-entries': { type: 'string', default: '0' },
    },
  });
  const operators = Number(values.operators);
  const seconds = Number(values.seconds);
  const chains = Number(values.chains);
  const auditEntries = Number(values['audit-entries']);
  const badOnly = values.only !== undefined && values.only !== 'latency' && values.only !== 'throughput';
  if (!Number.isInteger(operators) || operators < 1 || !(seconds > 0) || !Number.isInteger(chains) || chains < 1 || !Number.isInteger(auditEntries) || auditEntries < 0 || badOnly) {
    process.stderr.write('usage: node --import tsx bench/gateway.ts [--operators N>=1] [--seconds S>0] [--chains C>=1] [--memory] [--only latency|throughput] [--json FILE] [--audit-entries N>=0]\n');
    process.exit(2);
  }
  const config: GatewayConfig = {
    identities: [
      { id: 'operator', token: OPERATOR_TOKEN, role: 'operator', scopes: ['operator.admin'] },
      { id: 'agent', token: AGENT_TOKEN, role: 'agent', scopes: ['agent.run'] },
    ],
  };
  // The gateway's heap as `askdock gateway` sets it.
  boundHeapGrowth();
  const dir = mkdtempSync(join(tmpdir(), 'askdock-bench-'));
  // As startGateway opens its own database file (held exclusively, background checkpoints).
  const sqlite = values.memory
    ? null
    : openSqliteStore(join(dir, 'bench.db'), { checkpointInBackground: true, exclusive: true, syncFull: process.env.ASKDOCK_SYNC === 'FULL' });
  const settings = sqlite?.settings();
  const store = sqlite ?? createMemoryStore();
  await store.transaction(async () => {
    for (let i = 0; i < auditEntries; i++) await store.appendAudit({ atMs: 1_700_000_000_000 + i, event: 'question.asked', identity: 'agent', questionId: `preloaded-${i}` });
  });
  const gw = await startGateway({
    port: 0,
    config,
    checkFrames: false,
    store,
    rateLimit: { burst: 1_000_000, perSecond: 1_000_000 },
    log: createLogger({ pretty: process.stderr.isTTY }),
  });
  const echoServer = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((ok) => echoServer.once('listening', ok));
  echoServer.on('connection', (s) => s.on('message', (d) => s.send(d.toString())));
  const echoUrl = `ws://127.0.0.1:${(echoServer.address() as { port: number }).port}`;

  // Listeners first: the answering operator then sits last in fan-out order, the slowest place to get a question.
  const listen = startWorker({ role: 'listeners', url: gw.wsUrl, count: operators - 1 });
  await listen.ready;
  const drive = startWorker({ role: 'driver', url: gw.wsUrl, chains });
  await drive.ready;

  /** One phase: the listener count and the gateway thread's CPU and busy time are taken around it. */
  const phase = async (name: string, ms: number) => {
    await listen.ask('reset');
    const elu0 = performance.eventLoopUtilization();
    const thread0 = gatewayThreadMs();
    const r = (await drive.ask({ phase: name, ms, echoUrl })) as Phase & { seen: number };
    const thread1 = gatewayThreadMs();
    const elu = performance.eventLoopUtilization(elu0);
    const { seen } = await listen.ask('count');
    const thread = thread0 && thread1 ? { ran: thread1.ran - thread0.ran, waited: thread1.waited - thread0.waited } : { ran: NaN, waited: NaN };
    return { ...r, deliveries: r.seen + seen, utilization: elu.utilization, thread };
  };
  type Measured = Awaited<ReturnType<typeof phase>>;
  const perRoundTripUs = (p: Phase, totalMs: number) => round((totalMs * 1000) / Math.max(1, p.count), 0);
  const summary = (p: Measured) => ({
    roundTrips: p.count,
    roundTripsPerSec: round(p.count / (p.elapsedMs / 1000), 0),
    p50Ms: round(pct(p.lat, 50)),
    p99Ms: round(pct(p.lat, 99)),
    maxMs: round(p.lat[p.lat.length - 1] ?? NaN),
    deliveriesPerSec: round(p.deliveries / (p.elapsedMs / 1000), 0),
    gatewayLoopBusy: round(p.utilization, 2),
    gatewayCpuUsPerRoundTrip: perRoundTripUs(p, p.thread.ran),
    /** Share of the phase the gateway thread was ready to run but other processes had the CPUs. */
    gatewayWaitedForCpu: round(p.thread.waited / p.elapsedMs, 2),
  });

  await phase('sequential', 500);
  // `--profile` with `--only latency` profiles the one-chain phase; otherwise the throughput phase.
  const profileLatency = values.profile !== undefined && values.only === 'latency';
  const latencyProfiler = profileLatency ? await startProfile() : null;
  const seq = values.only === 'throughput' ? null : summary(await phase('sequential', seconds * 1000));
  if (latencyProfiler) writeFileSync(values.profile!, JSON.stringify(await latencyProfiler.stop()));
  const profiler = values.profile && !profileLatency ? await startProfile() : null;
  const conc = values.only === 'latency' ? null : summary(await phase('concurrent', seconds * 1000));
  if (profiler) writeFileSync(values.profile!, JSON.stringify(await profiler.stop()));
  const echoRun = await phase('echo', Math.min(seconds, 3) * 1000);
  await listen.ask('stop');
  const echo = { p50Ms: round(pct(echoRun.lat, 50)), p99Ms: round(pct(echoRun.lat, 99)) };

  const storeName = settings ? `sqlite (${settings.journalMode}, synchronous=${settings.synchronous}, ${settings.checkpoints} checkpoints)` : 'memory';
  const result = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadAverage1m: round(loadavg()[0], 2),
    store: storeName,
    auditEntriesBefore: auditEntries,
    operators,
    chains,
    seconds,
    /** One chain: each round trip starts when the last one ended; its p50/p99 are the latency figures. */
    sequential: seq,
    /** `chains` chains at once; roundTripsPerSec is the throughput figure, its latencies include queueing. */
    concurrent: conc,
    echo,
    ratios: seq && {
      sequentialP50OverEchoP50: round(seq.p50Ms / echo.p50Ms, 1),
      sequentialP99OverEchoP99: round(seq.p99Ms / echo.p99Ms, 1),
    },
    peakRssMb: round(process.resourceUsage().maxRSS / 1024, 0),
  };

  const ms = (x: number) => `${x.toFixed(3)} ms`;
  const percent = (x: number) => `${Math.round(x * 100)} %`;
  const cell = <T,>(p: T | null, show: (p: T) => string) => (p ? show(p) : '-');
  const rows: [string, string, string][] = [
    ['question round trips/s', cell(seq, (p) => String(p.roundTripsPerSec)), cell(conc, (p) => String(p.roundTripsPerSec))],
    ['round trip p50', cell(seq, (p) => ms(p.p50Ms)), cell(conc, (p) => ms(p.p50Ms))],
    ['round trip p99', cell(seq, (p) => ms(p.p99Ms)), cell(conc, (p) => ms(p.p99Ms))],
    ['round trip max', cell(seq, (p) => ms(p.maxMs)), cell(conc, (p) => ms(p.maxMs))],
    ['question.requested deliveries/s', cell(seq, (p) => String(p.deliveriesPerSec)), cell(conc, (p) => String(p.deliveriesPerSec))],
    ['gateway CPU per round trip', cell(seq, (p) => `${p.gatewayCpuUsPerRoundTrip} us`), cell(conc, (p) => `${p.gatewayCpuUsPerRoundTrip} us`)],
    ['gateway event loop busy', cell(seq, (p) => percent(p.gatewayLoopBusy)), cell(conc, (p) => percent(p.gatewayLoopBusy))],
    ['gateway ready but waiting for a CPU', cell(seq, (p) => percent(p.gatewayWaitedForCpu)), cell(conc, (p) => percent(p.gatewayWaitedForCpu))],
    ['bare ws echo p50 / p99', `${ms(echo.p50Ms)} / ${ms(echo.p99Ms)}`, ''],
    ['latency / echo, p50 / p99', cell(result.ratios, (r) => `${r.sequentialP50OverEchoP50}x / ${r.sequentialP99OverEchoP99}x`), ''],
    ['peak RSS (gateway and clients)', `${result.peakRssMb} MB`, ''],
  ];
  const widths = [38, 22, 26];
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('') + '\n';
  const out = process.stdout;
  out.write(`askdock gateway bench: ${storeName}, ${operators} operators${auditEntries ? `, ${auditEntries} audit entries stored before` : ''}, node ${process.version}, ${result.cpus} cpus, load ${result.loadAverage1m}\n`);
  out.write(line(['', 'latency: 1 chain', `throughput: ${chains} chains`]));
  out.write(line(widths.map((w) => '-'.repeat(w - 2))));
  for (const row of rows) out.write(line(row));
  out.write('latency: one request -> waitAnswer after another. throughput: chains at once, one session each (Q11);\n');
  out.write('its p50/p99 include waiting behind the other chains. CPU and waiting: the gateway thread\'s own (Linux).\n');
  mkdirSync(dirname(values.json), { recursive: true });
  writeFileSync(values.json, JSON.stringify(result, null, 2) + '\n');
  out.write(`saved ${values.json}\n`);

  echoServer.close();
  await gw.close();
  await sqlite?.close();
  rmSync(dir, { recursive: true, force: true });
}

const role = isMainThread ? 'main' : (workerData as { role: string }).role;
await (role === 'main' ? main() : role === 'driver' ? driver() : listeners());
