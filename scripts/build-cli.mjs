#!/usr/bin/env node
// `npm run build:cli`: compiles src/cli and what it imports to dist-cli/ (tsconfig.cli.json), so the bin starts without
// compiling TypeScript. `--if-stale` builds only when dist-cli/ is missing or older than its sources (npm start, npm test).
import { spawnSync } from 'node:child_process';
import { readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DIST_CLI, STAMP, freshCli } from '../bin/cli-dist.js';
import { HOOK_BUNDLE_ENTRY, bundleHook, bundleSources } from './cli-bundle.mjs';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, DIST_CLI);
// Compiled beside it and swapped in whole: a bin starting meanwhile finds the old build or none, never half of one.
const next = join(root, `${DIST_CLI}.next-${process.pid}`);

if (process.argv.includes('--if-stale')) {
  const { entry, why } = freshCli(root);
  if (entry) process.exit(0);
  process.stderr.write(`askdock: compiling the CLI (${why})\n`);
}

/** Every .js under `dir`, as paths relative to dist-cli/. */
function emitted(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = join(dir, d.name);
    if (d.isDirectory()) return emitted(full);
    return d.name.endsWith('.js') ? [relative(next, full)] : [];
  });
}

/** The source a compiled file came from: `cli/main.js` -> `src/cli/main.ts` (or `.tsx`). */
function sourceOf(js) {
  const base = join('src', js.slice(0, -'.js'.length));
  for (const ext of ['.ts', '.tsx']) {
    try {
      statSync(join(root, base + ext));
      return base + ext;
    } catch {
      // try the next extension
    }
  }
  throw new Error(`no source for ${DIST_CLI}/${js}`);
}

const startedAtMs = Date.now();
rmSync(next, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.cli.json'), '--outDir', next], { stdio: 'inherit' });
if (tsc.status !== 0) {
  rmSync(next, { recursive: true, force: true });
  // The last build stays, and it is older than the sources: the bin runs the sources.
  process.stderr.write('askdock: the CLI did not compile; the bin runs the TypeScript sources (tsx) meanwhile\n');
  // npm start and npm test go on through tsx then; `npm run build:cli` itself fails.
  process.exit(process.argv.includes('--if-stale') ? 0 : (tsc.status ?? 1));
}
const compiled = emitted(next).map(sourceOf);
// X1: `askdock hook` from one bundle; the bin runs the compiled modules for it when there is none (`hook` unset).
let hook;
try {
  hook = { entry: HOOK_BUNDLE_ENTRY, sources: bundleSources(await bundleHook(root, next)).concat('tsconfig.json') };
} catch (err) {
  process.stderr.write(`askdock: the hook did not bundle (${err instanceof Error ? err.message : String(err)}); askdock hook runs the compiled modules\n`);
}
const sources = [...new Set([...compiled, ...(hook?.sources ?? []), 'tsconfig.cli.json', 'tsconfig.json'])];
// The stamp goes last: the bin uses dist-cli/ only once it is there.
// `hookSources`: what the hook's bundle was made from, all the bin checks for `askdock hook` (bin/cli-dist.js).
writeFileSync(join(next, STAMP), JSON.stringify({ startedAtMs, sources, ...(hook ? { hook: hook.entry, hookSources: hook.sources } : {}) }, null, 1) + '\n');
rmSync(out, { recursive: true, force: true });
renameSync(next, out);
