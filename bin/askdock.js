#!/usr/bin/env -S node --max-semi-space-size=8
// The sources are TypeScript; tsx loads them in this one process, with the repo's tsconfig wherever it runs from
// (the TUI's JSX needs its settings also when `askdock` runs in another folder).
// S5: under a stream of frames V8 grows its young generation from the 2 x 8 MB it has after start to 2 x 16 MB and
// keeps it; `--max-semi-space-size=8` keeps those 16 MB out of the gateway's RSS (bench/FINDINGS.md 35). Launchers
// that run node themselves pass it in NODE_OPTIONS (docs/deploy.md "Memory").
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
