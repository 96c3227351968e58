#!/usr/bin/env -S node --max-semi-space-size=8
// X1: runs the compiled CLI (dist-cli/, `npm run build:cli`) when it is built from the sources as they are, so a hook
// run on every tool call starts in milliseconds; otherwise tsx compiles the TypeScript sources in this process, with
// the repo's tsconfig wherever it runs from (the TUI's JSX needs its settings also when `askdock` runs elsewhere).
// S5: under a stream of frames V8 grows its young generation from the 2 x 8 MB it has after start to 2 x 16 MB and
// keeps it; `--max-semi-space-size=8` keeps those 16 MB out of the gateway's RSS (bench/FINDINGS.md 35). Launchers
// that run node themselves pass it in NODE_OPTIONS (docs/deploy.md "Memory").
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshCli } from './cli-dist.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const { entry, hook } = process.env.ASKDOCK_CLI_SOURCES === '1' ? { entry: null, hook: null } : freshCli(root, argv[0]);
let main;
// `askdock hook` starts on every tool call: its one-file bundle, without the command table.
if (hook && argv[0] === 'hook') main = async (args) => (await import(pathToFileURL(hook).href)).run(args.slice(1));
else if (entry) ({ main } = await import(pathToFileURL(entry).href));
else {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(argv);
