#!/usr/bin/env node
// The sources are TypeScript; tsx loads them in this one process, with the repo's tsconfig wherever it runs from
// (the TUI's JSX needs its settings also when `askdock` runs in another folder).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
