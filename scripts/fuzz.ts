// `npm run fuzz`: S5 at full size. FUZZ_FRAMES (default 100000) seeded frames (FUZZ_SEED) against a gateway in a child
// process; prints frames sent, crashes, slow /healthz answers and the gateway's RSS before and after, read from outside
// the process (/proc, no forced garbage collection). Every breach of S5 is a problem, and any problem fails the run.
import { rmSync } from 'node:fs';
import { fuzzGateway, fuzzVerdict, SLOW_HEALTH_MS, startFuzzChild } from '../src/testing/fuzz-run.ts';

const frames = Number(process.env.FUZZ_FRAMES ?? 100_000);
const seed = Number(process.env.FUZZ_SEED ?? 20261201);
const MB = 1024 * 1024;
const mb = (n: number | null) => (n === null ? 'n/a' : `${(n / MB).toFixed(1)} MB`);

const child = await startFuzzChild();
const rssAtStart = await child.rss();
const base = { wsUrl: child.wsUrl, httpUrl: child.url, maxPayload: 1024 * 1024 };
// A warm-up first (every kind of frame, every identity), so "before" is the gateway at work with its caches, pools and
// compiled code in place, not a process that just started.
await fuzzGateway({ ...base, tokens: child.tokens, frames: Math.min(10_000, Math.ceil(frames / 5)), seed: seed + 1 });
const rssBefore = await child.rss();
const started = performance.now();
const report = await fuzzGateway({
  ...base,
  tokens: child.tokens,
  frames,
  seed,
  onProgress: (n) => process.stderr.write(`  ${n} frames\r`),
});
const seconds = (performance.now() - started) / 1000;
// The gateway's memory a moment after the run, as it stays: nothing asks it to collect garbage first.
await new Promise((r) => setTimeout(r, 1000));
const rssAfter = await child.rss();
const crashed = child.exited();
await child.stop();
rmSync(child.dir, { recursive: true, force: true });

const grew = rssBefore !== null && rssAfter !== null ? rssAfter - rssBefore : null;
const problems = fuzzVerdict(report, { crashed, rssBefore, rssAfter });
process.stdout.write(
  [
    `frames sent: ${report.framesSent} (seed ${seed}, ${seconds.toFixed(1)} s)`,
    `responses: ${report.responses}; errors by code: ${JSON.stringify(report.errorCodes)}; closes: ${JSON.stringify(report.closes)}`,
    `crashes: ${crashed ? 1 : 0}`,
    `healthz: ${report.healthChecks} checks, ${report.healthFailures} failed, slow (> ${SLOW_HEALTH_MS} ms): ${report.slowHealth}, slowest ${report.maxHealthMs} ms`,
    `rss at start: ${mb(rssAtStart)}; before the run: ${mb(rssBefore)}, after: ${mb(rssAfter)} (${grew === null ? 'n/a' : `${grew >= 0 ? '+' : ''}${mb(grew)}`}; bound: 20% or 40 MB)`,
    `problems: ${problems.length}${problems.length ? '\n  ' + problems.slice(0, 20).join('\n  ') : ''}`,
  ].join('\n') + '\n',
);
process.exit(problems.length === 0 ? 0 : 1);
