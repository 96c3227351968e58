// `npm run fuzz`: S5 at full size. FUZZ_FRAMES (default 100000) seeded frames (FUZZ_SEED) against a gateway in a child
// process; prints frames sent, crashes, slow /healthz answers and the gateway's RSS before and after.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fuzzGateway, SLOW_HEALTH_MS } from '../src/testing/fuzz-run.ts';

const frames = Number(process.env.FUZZ_FRAMES ?? 100_000);
const seed = Number(process.env.FUZZ_SEED ?? 20261201);
const MB = 1024 * 1024;

type Memory = { rss: number; heapUsed: number };
type Child = {
  pid: number;
  url: string;
  wsUrl: string;
  dir: string;
  tokens: string[];
  exited: () => boolean;
  /** The child's memory after a full garbage collection. */
  memory: () => Promise<Memory | null>;
  stop: () => Promise<void>;
};

async function startChild(): Promise<Child> {
  const proc = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'src/testing/fuzz-child.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let exited = false;
  const exit = new Promise<void>((done) => proc.on('exit', () => ((exited = true), done())));
  const lines = createInterface({ input: proc.stdout! });
  const nextLine = () =>
    new Promise<string | null>((ok) => {
      lines.once('line', ok);
      void exit.then(() => ok(null));
    });
  const line = await nextLine();
  if (line === null) throw new Error('the fuzz gateway exited before listening');
  const info = JSON.parse(line) as Pick<Child, 'url' | 'wsUrl' | 'dir' | 'tokens'>;
  const memory = async () => {
    if (exited) return null;
    const answer = nextLine();
    proc.kill('SIGUSR2');
    const text = await answer;
    return text === null ? null : (JSON.parse(text) as Memory);
  };
  return { ...info, pid: proc.pid!, exited: () => exited, memory, stop: async () => void (proc.kill('SIGTERM'), await exit) };
}

const mb = (n: number | null) => (n === null ? 'n/a' : `${(n / MB).toFixed(1)} MB`);

const child = await startChild();
const base = { wsUrl: child.wsUrl, httpUrl: child.url, maxPayload: 1024 * 1024 };
// A warm-up first (every kind of frame, every identity), so "before" is the gateway at work with its caches, pools and
// compiled code in place, not a process that just started; both samples are taken after a full garbage collection.
await fuzzGateway({ ...base, tokens: child.tokens, frames: Math.min(10_000, Math.ceil(frames / 5)), seed: seed + 1 });
const before = await child.memory();
const started = performance.now();
const report = await fuzzGateway({
  ...base,
  tokens: child.tokens,
  frames,
  seed,
  onProgress: (n) => process.stderr.write(`  ${n} frames\r`),
});
await new Promise((r) => setTimeout(r, 1000));
const after = await child.memory();
const crashes = child.exited() ? 1 : 0;
const seconds = (performance.now() - started) / 1000;
await child.stop();
rmSync(child.dir, { recursive: true, force: true });

const rssBefore = before?.rss ?? null;
const rssAfter = after?.rss ?? null;
const grew = rssBefore !== null && rssAfter !== null ? rssAfter - rssBefore : null;
const withinBound = grew !== null && grew <= Math.max(40 * MB, rssBefore! * 0.2);
process.stdout.write(
  [
    `frames sent: ${report.framesSent} (seed ${seed}, ${seconds.toFixed(1)} s)`,
    `responses: ${report.responses}; errors by code: ${JSON.stringify(report.errorCodes)}; closes: ${JSON.stringify(report.closes)}`,
    `crashes: ${crashes}`,
    `healthz: ${report.healthChecks} checks, ${report.healthFailures} failed, slow (> ${SLOW_HEALTH_MS} ms): ${report.slowHealth}, slowest ${report.maxHealthMs} ms`,
    `heap used (after gc) before: ${mb(before?.heapUsed ?? null)}, after: ${mb(after?.heapUsed ?? null)}`,
    `rss before: ${mb(rssBefore)}, after: ${mb(rssAfter)} (${grew === null ? 'n/a' : `${grew >= 0 ? '+' : ''}${mb(grew)}`}${withinBound ? ', within 20% or 40 MB' : ', MORE than 20% and 40 MB'})`,
    `problems: ${report.problems.length}${report.problems.length ? '\n  ' + [...new Set(report.problems)].slice(0, 20).join('\n  ') : ''}`,
  ].join('\n') + '\n',
);
process.exit(crashes === 0 && report.problems.length === 0 && report.healthFailures === 0 && withinBound ? 0 : 1);
