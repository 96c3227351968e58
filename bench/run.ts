/**
 * `npm run bench`: the Control UI and the end-to-end question path, each figure beside a baseline measured in the
 * same run (this machine is shared and noisy: compare ratios across runs, not raw milliseconds).
 *   node --import tsx bench/run.ts [--only question,panel,load,gateway,scale,cross,scaleout,pgclient,search,hook,policy,routing,audit] [--json bench/results/latest.json]
 *                                  [--history bench/results/history.jsonl] [--no-history]
 * Each run appends its figures to the history file and prints, beside each ratio, the ratio of the previous run.
 * Builds dist/ when it is missing or stale, runs the gateway as a child, drives Debian's Chromium (or CHROMIUM_PATH).
 * `cross` runs two gateways on PostgreSQL (ASKDOCK_BENCH_POSTGRES_URL, else a throwaway server from Debian's binaries).
 * `scaleout` runs one SQLite gateway, then one and three PostgreSQL gateways with the database 0 and 1 ms away (D5).
 *   With ASKDOCK_BENCH_PROFILE=<dir> each of its gateways writes a CPU profile of the measured window there
 *   (`node bench/profiles/categories.mjs FILE` sorts one).
 * `pgclient` replays one question round trip's database statements through pg and through postgres, taking turns (D5).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { firstLoadKb } from './bundle-size.ts';
import { measureCrossGateway } from './gateway-cross.ts';
import { measureGatewayMemory } from './gateway-memory.ts';
import { runGatewayBench } from './gateway-runs.ts';
import { measureScale } from './scale.ts';
import { measureScaleout } from './scaleout.ts';
import { measurePgClient } from './pgclient.ts';
import { measureSearch } from './search.ts';
import { measureHookStart } from './hook-start.ts';
import { measurePolicy } from './policy.ts';
import { measureRouting } from './routing.ts';
import { measureAudit } from './audit.ts';
import { measureExportVerify } from './audit-export.ts';
import { connectOperator, startBenchGateway } from './lib/bench-gateway.ts';
import { buildBareReact, ensureUiBuilt } from './lib/build.ts';
import { findChromium, launchChromium } from './lib/chromium.ts';
import { serveStatic } from './lib/static-server.ts';
import { formatMarkdown, formatTable } from './lib/table.ts';
import { appendHistory, readHistory, withTrend } from './lib/history.ts';
import { buildRows, type Results } from './rows.ts';
import { measureFirstLoad } from './ui/first-load.ts';
import { measurePanel } from './ui/panel.ts';
import { measureQuestionPath } from './ui/question-latency.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PARTS = ['question', 'panel', 'load', 'gateway', 'scale', 'cross', 'scaleout', 'pgclient', 'search', 'hook', 'policy', 'routing', 'audit'] as const;

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: PARTS.join(',') },
    json: { type: 'string', default: join(ROOT, 'bench', 'results', 'latest.json') },
    history: { type: 'string', default: join(ROOT, 'bench', 'results', 'history.jsonl') },
    'no-history': { type: 'boolean', default: false },
  },
});
// Exiting (rather than dying on the signal) runs the exit hooks that stop the gateway children.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
const only = new Set(values.only.split(',').map((s) => s.trim()));
const started = performance.now();
const step = (what: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${what}\n`);
const results: Results = {};
const load = { start: loadavg()[0], end: NaN };

step('building the Control UI if stale, and the bare React page');
const built = await ensureUiBuilt(ROOT);
const bareDir = await buildBareReact(ROOT);
results.bundle = { appKb: firstLoadKb(join(ROOT, 'dist')).kb, bareKb: firstLoadKb(bareDir).kb };

let browserVersion = '';
if (only.has('question') || only.has('panel') || only.has('load')) {
  const gateway = await startBenchGateway();
  const browser = await launchChromium();
  browserVersion = browser.version();
  try {
    if (only.has('load')) {
      step('first load: cold loads of the app and of the bare page');
      const operator = await connectOperator(gateway);
      const { session } = await operator.request('sessions.create', { title: 'First load' });
      for (let i = 0; i < 10; i++) await operator.request('chat.send', { sessionKey: session.key, message: `Hello ${i}`, idempotencyKey: `bench-first-load-${i}` });
      operator.close();
      const bare = await serveStatic(bareDir);
      try {
        results.firstLoad = await measureFirstLoad(browser, `${gateway.url}/?token=${encodeURIComponent(gateway.operatorToken)}`, `${bare.url}/`);
      } finally {
        await bare.close();
      }
    }
    if (only.has('question')) {
      step('question path: 200 questions through Chromium, 200 through a Node operator');
      results.question = await measureQuestionPath(browser, gateway, 200);
    }
    if (only.has('panel')) {
      step('panel: 5,000 messages and 20 pending requests beside an empty session');
      results.panel = await measurePanel(browser, gateway);
    }
  } finally {
    await browser.close();
    await gateway.close();
  }
}

if (only.has('gateway')) {
  step('gateway memory: 1,000 idle operators and 100 pending questions');
  results.gatewayMemory = await measureGatewayMemory(1000, 100);
  results.gatewayRuns = [];
  for (const operators of [1, 50, 500]) {
    step(`gateway round trips: bench/gateway.ts --operators ${operators}`);
    results.gatewayRuns.push(await runGatewayBench(ROOT, operators, 3));
  }
}

if (only.has('scale')) results.scale = await measureScale(step);

if (only.has('cross')) {
  step('two gateways on PostgreSQL: 200 round trips answered on the same gateway, 200 on the other, alternating');
  try {
    results.crossGateway = await measureCrossGateway(200);
  } catch (err) {
    process.stderr.write(`bench: the two-gateway row failed: ${(err as Error).message}\n`);
  }
}

if (only.has('scaleout')) {
  try {
    results.scaleout = await measureScaleout(step);
  } catch (err) {
    process.stderr.write(`bench: the scale-out rows failed: ${(err as Error).message}\n`);
  }
}

if (only.has('pgclient')) {
  try {
    results.pgclient = await measurePgClient(step);
  } catch (err) {
    process.stderr.write(`bench: the database client rows failed: ${(err as Error).message}\n`);
  }
}

if (only.has('search')) {
  step('search: 1,000 sessions x 100 messages on SQLite FTS5, against chat.history of one session');
  results.search = await measureSearch();
}

if (only.has('hook')) {
  step("hook start: askdock hook from spawn to its question at the gateway: its bundle, the compiled modules (20 each), tsx (5), node -e '' between");
  results.hookStart = await measureHookStart(ROOT);
}

if (only.has('policy')) {
  step('approval policy: 300 question.request {approval}, each a different command, decided by 1,000 rules, beside 300 plain question.request');
  results.policy = await measurePolicy();
}

if (only.has('routing')) {
  step('routing: 300 question round trips routed beside 300 unrouted; escalation steps with 1 and 1,000 others pending; 1,000 steps on a real clock beside round trips');
  results.routing = await measureRouting();
}
if (only.has('audit')) {
  step('audit log: 400 question round trips on a signed gateway (receipts, checkpoints) beside 400 on an unsigned one');
  results.audit = await measureAudit();
  step('audit log: an export of 100,000 entries built and verified in process (context)');
  results.audit.exported = measureExportVerify();
}

load.end = loadavg()[0];
const rows = withTrend(buildRows(results), readHistory(values.history));
const seconds = (performance.now() - started) / 1000;
const machine = { node: process.version, cpus: cpus().length, chromium: browserVersion || findChromium() || 'playwright', loadAverage1m: load };
const header = `askdock bench, ${new Date().toISOString()}: node ${machine.node}, ${machine.cpus} cpus, Chromium ${machine.chromium}, load ${load.start.toFixed(1)} -> ${load.end.toFixed(1)}, ${seconds.toFixed(0)} s`;
process.stdout.write(`\n${header}\n${formatTable(rows)}\n`);
mkdirSync(dirname(values.json), { recursive: true });
writeFileSync(values.json, JSON.stringify({ at: new Date().toISOString(), seconds: Math.round(seconds), machine, build: built, rows, markdown: formatMarkdown(rows), results }, null, 2) + '\n');
process.stdout.write(`saved ${values.json}\n`);
if (!values['no-history']) {
  appendHistory(values.history, { at: new Date().toISOString(), seconds: Math.round(seconds), machine, sections: [...only], rows: rows.map(({ trend: _trend, ...r }) => r) });
  process.stdout.write(`appended to ${values.history}\n`);
}
