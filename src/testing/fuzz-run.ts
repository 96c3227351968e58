import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import WebSocket from 'ws';
import { newId } from '../lib/ids.ts';
import { ERROR_CODES, PROTOCOL_VERSION } from '../protocol/index.ts';
import { FrameFuzzer } from './fuzz-frames.ts';

/** Close codes a fuzzed socket may end with: policy (1008), too large (1009), bad UTF-8 (1007), P4's 4001-4003. */
export const EXPECTED_CLOSES = new Set([1007, 1008, 1009, 4001, 4002, 4003]);
/** S5: /healthz slower than this counts as a stall. */
export const SLOW_HEALTH_MS = 100;

export type FuzzOptions = {
  wsUrl: string;
  httpUrl: string;
  /** Tokens the logged-in lanes connect with; the other lanes stay before `connect`. */
  tokens: string[];
  frames: number;
  seed: number;
  maxPayload: number;
  /** Lanes that never log in. */
  anonymousLanes?: number;
  /** Frames each lane sends before it waits for the gateway to catch up. */
  batch?: number;
  onProgress?: (sent: number) => void;
};

export type FuzzReport = {
  framesSent: number;
  responses: number;
  errorCodes: Record<string, number>;
  closes: Record<string, number>;
  /** Error codes outside the protocol's list, internal errors, unexpected close codes, lanes that stalled. */
  problems: string[];
  healthChecks: number;
  healthFailures: number;
  slowHealth: number;
  maxHealthMs: number;
};

type Lane = { token: string | null };

/** Sends `frames` seeded frames over several sockets, polling /healthz meanwhile, and tells what came back. */
export async function fuzzGateway(opts: FuzzOptions): Promise<FuzzReport> {
  const fuzzer = new FrameFuzzer(opts.seed, opts.maxPayload);
  const report: FuzzReport = { framesSent: 0, responses: 0, errorCodes: {}, closes: {}, problems: [], healthChecks: 0, healthFailures: 0, slowHealth: 0, maxHealthMs: 0 };
  const batch = opts.batch ?? 50;
  let running = true;
  const health = pollHealth(opts.httpUrl, report, () => running);
  const lanes: Lane[] = [...opts.tokens.map((token) => ({ token })), ...Array.from({ length: opts.anonymousLanes ?? 2 }, () => ({ token: null }))];
  const take = () => {
    if (report.framesSent >= opts.frames) return null;
    report.framesSent++;
    if (report.framesSent % 5000 === 0) opts.onProgress?.(report.framesSent);
    return fuzzer.next();
  };
  await Promise.all(lanes.map((lane) => runLane(lane, opts, report, take, batch)));
  running = false;
  await health;
  return report;
}

async function runLane(lane: Lane, opts: FuzzOptions, report: FuzzReport, take: () => ReturnType<FrameFuzzer['next']> | null, batch: number) {
  let syncs = 0;
  let refusedInARow = 0;
  while (report.framesSent < opts.frames) {
    const socket = await openSocket(opts.wsUrl, report);
    if (!socket) {
      // A gateway that no longer accepts sockets has crashed or stalled: say so rather than spin.
      if (++refusedInARow < 20) continue;
      report.problems.push('the gateway stopped accepting sockets');
      return;
    }
    refusedInARow = 0;
    const { ws, closed } = socket;
    let pending = null as { id: string; done: () => void } | null;
    ws.on('message', (data: Buffer, isBinary) => {
      report.responses++;
      const text = isBinary ? '' : data.toString();
      let frame: { type?: string; id?: string | null; ok?: boolean; error?: { code?: string; message?: string } };
      try {
        frame = JSON.parse(text);
      } catch {
        report.problems.push(`a frame from the gateway is not JSON: ${text.slice(0, 80)}`);
        return;
      }
      if (frame.type === 'res' && frame.ok === false) {
        const code = String(frame.error?.code);
        report.errorCodes[code] = (report.errorCodes[code] ?? 0) + 1;
        if (!(ERROR_CODES as readonly string[]).includes(code)) report.problems.push(`unknown error code ${code}`);
        if (code === 'UNAVAILABLE' && /internal error/.test(frame.error?.message ?? '')) report.problems.push(`internal error: ${frame.error?.message?.slice(0, 200)}`);
      }
      if (pending && frame.id === pending.id) pending.done();
    });
    let open = true;
    void closed.then(() => (open = false));
    if (lane.token) {
      const ok = await request(ws, closed, 'connect', {
        minProtocol: PROTOCOL_VERSION,
        maxProtocol: PROTOCOL_VERSION,
        client: { id: `fuzz-${newId()}`, name: 'fuzz', version: '0', platform: 'node', mode: 'cli' },
        auth: { token: lane.token },
      }, (p) => (pending = p));
      if (!ok) {
        ws.terminate();
        continue;
      }
    }
    while (open) {
      // Before connect the gateway closes after 10 bad frames: send no more than it will read.
      for (let i = 0; i < (lane.token ? batch : 12) && open; i++) {
        const frame = take();
        if (!frame) break;
        ws.send(frame.data, { binary: frame.binary });
      }
      if (!open || report.framesSent >= opts.frames) break;
      // Wait for the gateway to catch up: a request answered means every frame before it was read.
      const synced = await request(ws, closed, 'sessions.list', {}, (p) => (pending = p), `sync-${syncs++}`);
      if (!synced && open && lane.token) report.problems.push('a logged-in lane got no answer to its sync request within 60 s');
      if (!lane.token) break;
    }
    ws.close();
    await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
    ws.terminate();
  }
}

function openSocket(url: string, report: FuzzReport): Promise<{ ws: WebSocket; closed: Promise<number> } | null> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { maxPayload: 64 * 1024 * 1024 });
    const closed = new Promise<number>((done) =>
      ws.on('close', (code) => {
        report.closes[code] = (report.closes[code] ?? 0) + 1;
        if (!EXPECTED_CLOSES.has(code) && code !== 1000 && code !== 1005) report.problems.push(`socket closed with ${code}`);
        done(code);
      }),
    );
    ws.on('error', () => {});
    ws.once('open', () => resolve({ ws, closed }));
    ws.once('unexpected-response', () => resolve(null));
    closed.then(() => resolve(null));
  });
}

/** Sends one request and waits for its answer (true), the socket closing or 60 s (false). */
function request(ws: WebSocket, closed: Promise<number>, method: string, params: unknown, wait: (p: { id: string; done: () => void }) => void, id = `req-${method}`) {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 60_000);
    wait({ id, done: () => (clearTimeout(timer), resolve(true)) });
    void closed.then(() => (clearTimeout(timer), resolve(false)));
    ws.send(JSON.stringify({ type: 'req', id, method, params }));
  });
}

// Its own thread, so the time measured is the gateway's answer, not this process being busy making frames.
const HEALTH_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { get } = require('node:http');
const stats = { checks: 0, failures: 0, slow: 0, max: 0 };
let running = true;
parentPort.on('message', () => { running = false; });
(async () => {
  while (running) {
    const started = performance.now();
    const ok = await new Promise((resolve) => {
      const req = get(workerData.url + '/healthz', (res) => { res.resume(); res.on('end', () => resolve(res.statusCode === 200)); });
      req.setTimeout(10000, () => req.destroy());
      req.on('error', () => resolve(false));
    });
    const ms = performance.now() - started;
    stats.checks++;
    if (!ok) stats.failures++;
    if (ms > workerData.slowMs) stats.slow++;
    stats.max = Math.max(stats.max, Math.round(ms));
    await new Promise((r) => setTimeout(r, 50));
  }
  parentPort.postMessage(stats);
})();
`;

async function pollHealth(httpUrl: string, report: FuzzReport, running: () => boolean): Promise<void> {
  const worker = new Worker(HEALTH_WORKER, { eval: true, workerData: { url: httpUrl, slowMs: SLOW_HEALTH_MS } });
  const stats = new Promise<{ checks: number; failures: number; slow: number; max: number }>((done) => worker.once('message', done));
  while (running()) await new Promise((r) => setTimeout(r, 50));
  worker.postMessage('stop');
  const s = await stats;
  await worker.terminate();
  Object.assign(report, { healthChecks: s.checks, healthFailures: s.failures, slowHealth: s.slow, maxHealthMs: s.max });
}

const MB = 1024 * 1024;

/** A gateway in a process of its own (fuzz-child.ts), so its RSS is its own and is read from outside. */
export type FuzzChild = {
  pid: number;
  url: string;
  wsUrl: string;
  dir: string;
  tokens: string[];
  exited: () => boolean;
  /** The child's resident set size as the operating system reports it, without asking it for anything (no forced GC). */
  rss: () => Promise<number | null>;
  stop: () => Promise<void>;
};

/** VmRSS of a process, from /proc (bytes); null once it is gone. */
export async function rssOf(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
    return kb ? Number(kb[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Starts fuzz-child.ts (the gateway as `askdock gateway` runs it) and waits until it listens. */
export async function startFuzzChild(cwd = process.cwd()): Promise<FuzzChild> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/testing/fuzz-child.ts'], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  let exited = false;
  const exit = new Promise<void>((done) => proc.on('exit', () => ((exited = true), done())));
  const lines = createInterface({ input: proc.stdout! });
  const line = await new Promise<string | null>((ok) => {
    lines.once('line', ok);
    void exit.then(() => ok(null));
  });
  if (line === null) throw new Error('the fuzz gateway exited before listening');
  const info = JSON.parse(line) as Pick<FuzzChild, 'url' | 'wsUrl' | 'dir' | 'tokens'>;
  return {
    ...info,
    pid: proc.pid!,
    exited: () => exited,
    rss: () => (exited ? Promise.resolve(null) : rssOf(proc.pid!)),
    stop: async () => void (exited || proc.kill('SIGTERM'), await exit),
  };
}

/** S5's memory bound: RSS within 20 % or 40 MB of where it started, whichever is more. */
export const rssWithinBound = (before: number, after: number): boolean => after - before <= Math.max(40 * MB, before * 0.2);

/**
 * Everything S5 bounds that a run broke, each as a line: crashes, protocol problems, /healthz failing or slower than
 * SLOW_HEALTH_MS, RSS grown past its bound. A run is sound only when this is empty.
 */
export function fuzzVerdict(report: FuzzReport, memory: { crashed: boolean; rssBefore: number | null; rssAfter: number | null }): string[] {
  const out = [...new Set(report.problems)];
  if (memory.crashed) out.push('the gateway crashed');
  if (report.healthFailures > 0) out.push(`/healthz failed ${report.healthFailures} of ${report.healthChecks} times`);
  if (report.slowHealth > 0) out.push(`/healthz took more than ${SLOW_HEALTH_MS} ms in ${report.slowHealth} of ${report.healthChecks} checks (slowest ${report.maxHealthMs} ms)`);
  if (memory.rssBefore === null || memory.rssAfter === null) out.push('the gateway\'s RSS could not be read');
  else if (!rssWithinBound(memory.rssBefore, memory.rssAfter))
    out.push(`RSS grew by ${((memory.rssAfter - memory.rssBefore) / MB).toFixed(1)} MB, more than 20 % and 40 MB of ${(memory.rssBefore / MB).toFixed(1)} MB`);
  return out;
}
