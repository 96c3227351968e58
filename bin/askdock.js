#!/usr/bin/env node
// The sources are TypeScript; tsx loads them in this one process.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
