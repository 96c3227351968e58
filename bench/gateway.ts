/**
 * Gateway benchmark (printed, not asserted): question round trips with 1 agent and N operator connections,
 * beside a bare `ws` echo round trip measured in the same run.
 *   node --import tsx bench/gateway.ts [--operators 50] [--seconds 5] [--memory]
 * One round trip: agent question.request -> question.requested at a subscribed operator -> question.resolve
 * -> the agent's question.waitAnswer returns. The other N-1 operators listen from a worker thread, so their
 * JSON parsing does not run on the gateway's thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import WebSocket, { WebSocketServer } from 'ws';
import { PROTOCOL_VERSION, type GatewayConfig } from '../src/protocol/index.ts';
import { startGateway } from '../src/gateway/gateway.ts';

type Frame = { type: string; id?: string | null; ok?: boolean; payload?: any; error?: any; event?: string };

/** A lean client: no schema checks, so the numbers measure the gateway, not the test harness. */
class BenchClient {
  private next = 1;
  private readonly waiting = new Map<string, (f: Frame) => void>();
  onEvent: (f: Frame) => void = () => {};
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const f = JSON.parse(data.toString()) as Frame;
      if (f.type === 'res' && f.id) {
        const done = this.waiting.get(f.id);
        this.waiting.delete(f.id);
        done?.(f);
      } else if (f.type === 'event') this.onEvent(f);
    });
  }
  static async connect(url: string, token: string, mode: string): Promise<BenchClient> {
    const ws = new WebSocket(url);
    await new Promise((ok, fail) => (ws.once('open', ok), ws.once('error', fail)));
    const c = new BenchClient(ws);
    const hello = await c.call('connect', {
      minProtocol: PROTOCOL_VERSION,
      maxProtocol: PROTOCOL_VERSION,
      client: { id: `bench-${Math.random()}`, name: 'bench', version: '0', platform: 'node', mode },
      auth: { token },
    });
    if (!hello.ok) throw new Error(JSON.stringify(hello.error));
    return c;
  }
  call(method: string, params: unknown): Promise<Frame> {
    const id = String(this.next++);
    return new Promise((ok) => {
      this.waiting.set(id, ok);
      this.ws.send(JSON.stringify({ type: 'req', id, method, params }));
    });
  }
  send(method: string, params: unknown): void {
    this.ws.send(JSON.stringify({ type: 'req', id: `f${this.next++}`, method, params }));
  }
  close(): void {
    this.ws.close();
  }
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (x: number) => `${x.toFixed(3)} ms`;

async function timed(durationMs: number, once: () => Promise<void>): Promise<{ count: number; elapsedMs: number; lat: number[] }> {
  const lat: number[] = [];
  const start = performance.now();
  while (performance.now() - start < durationMs) {
    const t0 = performance.now();
    await once();
    lat.push(performance.now() - t0);
  }
  return { count: lat.length, elapsedMs: performance.now() - start, lat: lat.sort((a, b) => a - b) };
}

async function echoBaseline(durationMs: number) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((ok) => wss.once('listening', ok));
  wss.on('connection', (s) => s.on('message', (d) => s.send(d.toString())));
  const ws = new WebSocket(`ws://127.0.0.1:${(wss.address() as { port: number }).port}`);
  await new Promise((ok) => ws.once('open', ok));
  const frame = JSON.stringify({ type: 'req', id: '1', method: 'question.resolve', params: { id: 'q_x', answers: { env: ['Staging'] } } });
  const once = () => new Promise<void>((ok) => (ws.once('message', () => ok()), ws.send(frame)));
  await timed(300, once);
  const result = await timed(durationMs, once);
  ws.close();
  wss.close();
  return result;
}

async function listeners(): Promise<void> {
  const { url, token, count } = workerData as { url: string; token: string; count: number };
  const clients: BenchClient[] = [];
  let seen = 0;
  for (let i = 0; i < count; i++) {
    const c = await BenchClient.connect(url, token, 'ui');
    c.onEvent = (f) => void (f.event === 'question.requested' && seen++);
    clients.push(c);
  }
  parentPort!.postMessage({ ready: true });
  parentPort!.on('message', (m) => {
    if (m === 'reset') seen = 0;
    if (m === 'stop') {
      for (const c of clients) c.close();
      parentPort!.postMessage({ seen });
      parentPort!.close();
    }
  });
}

async function main(): Promise<void> {
const { values } = parseArgs({
  options: { operators: { type: 'string', default: '50' }, seconds: { type: 'string', default: '5' }, memory: { type: 'boolean', default: false } },
});
const operators = Number(values.operators);
const seconds = Number(values.seconds);
if (!Number.isInteger(operators) || operators < 1 || !(seconds > 0)) {
  process.stderr.write('usage: node --import tsx bench/gateway.ts [--operators N>=1] [--seconds S>0] [--memory]\n');
  process.exit(2);
}
const config: GatewayConfig = {
  identities: [
    { id: 'operator', token: 'bench-operator-token', role: 'operator', scopes: ['operator.admin'] },
    { id: 'agent', token: 'bench-agent-token', role: 'agent', scopes: ['agent.run'] },
  ],
};
const dir = mkdtempSync(join(tmpdir(), 'askdock-bench-'));
const gw = await startGateway({
  port: 0,
  config,
  checkFrames: false,
  ...(values.memory ? {} : { dbPath: join(dir, 'bench.db') }),
  rateLimit: { burst: 1_000_000, perSecond: 1_000_000 },
  log: (line) => process.stderr.write(line + '\n'),
});
const agent = await BenchClient.connect(gw.wsUrl, 'bench-agent-token', 'agent');
const answerer = await BenchClient.connect(gw.wsUrl, 'bench-operator-token', 'ui');
answerer.onEvent = (f) => {
  if (f.event === 'question.requested') answerer.send('question.resolve', { id: f.payload.question.id, answers: { env: ['Staging'] } });
};
// A worker cannot start from a .ts file on Node 20, so a small loader registers tsx first.
const loader = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); });`;
const worker = new Worker(loader, { eval: true, workerData: { url: gw.wsUrl, token: 'bench-operator-token', count: operators - 1 } });
const fromWorker = () => new Promise<any>((ok) => worker.once('message', ok));
await fromWorker();
const question = { questions: [{ id: 'env', header: 'Environment', question: 'Where to?', options: [{ label: 'Staging' }, { label: 'Production' }] }] };
const roundTrip = async () => {
  const asked = await agent.call('question.request', question);
  if (!asked.ok) throw new Error(JSON.stringify(asked.error));
  const answer = await agent.call('question.waitAnswer', { id: asked.payload.id });
  if (answer.payload?.status !== 'answered') throw new Error(`unexpected ${JSON.stringify(answer)}`);
};

await timed(500, roundTrip);
worker.postMessage('reset');
const gwRun = await timed(seconds * 1000, roundTrip);
worker.postMessage('stop');
const seenByAll = gwRun.count + ((await fromWorker()) as { seen: number }).seen;
const echo = await echoBaseline(Math.min(seconds, 3) * 1000);
const rss = process.resourceUsage().maxRSS / 1024;

const rows = [
  ['store', values.memory ? 'memory' : 'sqlite (WAL, synchronous=FULL)'],
  ['operators connected', String(operators)],
  ['question round trips/s', (gwRun.count / (gwRun.elapsedMs / 1000)).toFixed(0)],
  ['round trip p50 / p99', `${ms(pct(gwRun.lat, 50))} / ${ms(pct(gwRun.lat, 99))}`],
  ['question.requested deliveries/s', (seenByAll / (gwRun.elapsedMs / 1000)).toFixed(0)],
  ['bare ws echo p50 / p99', `${ms(pct(echo.lat, 50))} / ${ms(pct(echo.lat, 99))}`],
  ['ratio p50 (round trip / echo)', `${(pct(gwRun.lat, 50) / pct(echo.lat, 50)).toFixed(1)}x`],
  ['peak RSS', `${rss.toFixed(0)} MB`],
];
for (const [k, v] of rows) process.stdout.write(`${k.padEnd(34)} ${v}\n`);

agent.close();
answerer.close();
await gw.close();
rmSync(dir, { recursive: true, force: true });
}

await (isMainThread ? main() : listeners());
