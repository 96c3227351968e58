#!/usr/bin/env node
// `npm test`: typecheck, unit tests, build, end-to-end in Chromium; one closing line sums them all.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, '.test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const only = process.argv[2]; // optional: typecheck | unit | e2e
const totals = { passed: 0, failed: 0, skipped: 0 };

function run(label, cmd, args, env = {}) {
  process.stdout.write(`\n== ${label}: ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  for (const c of candidates) if (c && existsSync(c)) return c;
  return null;
}

function ensureChromium() {
  let found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    run('install chromium', 'bash', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null']);
    found = findChromium();
    if (found) return found;
  }
  // Elsewhere (a laptop) Playwright's own browser is the usual way.
  run('install playwright chromium', 'npx', ['playwright', 'install', 'chromium']);
  return ''; // empty: let Playwright use its own
}

function countVitest(file) {
  if (!existsSync(file)) return false;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += r.numPassedTests ?? 0;
  totals.failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  return true;
}

function countPlaywright(file) {
  if (!existsSync(file)) return false;
  const s = JSON.parse(readFileSync(file, 'utf8')).stats ?? {};
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
  totals.failed += s.unexpected ?? 0;
  totals.skipped += s.skipped ?? 0;
  return true;
}

let failedStep = false;
// The bin runs the compiled CLI when dist-cli/ is fresh (tests spawn it many times); a failed compile leaves the
// sources to tsx, and the typecheck below reports why.
run('compile the CLI if stale', 'node', ['scripts/build-cli.mjs', '--if-stale']);
if (!only || only === 'typecheck') {
  const code = run('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
  if (code === 0) totals.passed += 1;
  else {
    totals.failed += 1;
    failedStep = true;
  }
}
if (!only || only === 'unit') {
  const file = join(out, 'vitest.json');
  const code = run('unit', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${file}`]);
  if (!countVitest(file) && code !== 0) totals.failed += 1;
  if (code !== 0) failedStep = true;
}
if (!only || only === 'e2e') {
  const chromium = ensureChromium();
  const build = run('build', 'npm', ['run', 'build']);
  if (build !== 0) {
    totals.failed += 1;
    failedStep = true;
  } else {
    const file = join(out, 'playwright.json');
    const code = run('e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: file,
      ...(chromium ? { CHROMIUM_PATH: chromium } : {}),
    });
    if (!countPlaywright(file) && code !== 0) totals.failed += 1;
    if (code !== 0) failedStep = true;
  }
}
process.stdout.write(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(failedStep || totals.failed ? 1 : 0);
