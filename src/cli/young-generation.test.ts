import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, shippedNodeFlags } from '../testing/gateway-child.ts';

// S5: the gateway's RSS after a fuzz run depends on V8's young generation, which the node flags bound (bench/FINDINGS.md 35).
const dir = mkdtempSync(join(tmpdir(), 'askdock-flags-'));
const hook = join(dir, 'report.mjs');
writeFileSync(hook, "process.on('exit', () => process.stderr.write('\\nFLAGS ' + JSON.stringify(process.execArgv) + '\\n'));\n");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The node flags a process started this way ran with, as it saw them itself. */
function flagsOf(command: string, args: string[]): string[] {
  const run = spawnSync(command, args, { cwd: REPO, encoding: 'utf8', timeout: 30_000, env: { ...process.env, NODE_OPTIONS: `--import=${hook}` } });
  const line = /^FLAGS (.*)$/m.exec(run.stderr);
  expect(line, run.stderr).not.toBeNull();
  return JSON.parse(line![1]) as string[];
}

describe('the node flags askdock ships with', () => {
  it('[S5] bin/askdock.js run through its shebang (as npx and a global install run it) bounds the young generation', () => {
    expect(shippedNodeFlags()).toContain('--max-semi-space-size=8');
    expect(flagsOf(join(REPO, 'bin/askdock.js'), ['--version'])).toEqual(expect.arrayContaining(shippedNodeFlags()));
  });

  it('[S5] npm start runs the gateway with the same flags as the shebang', () => {
    const start = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
    expect(start).toBe(`node ${shippedNodeFlags().join(' ')} bin/askdock.js start`);
  });
});
