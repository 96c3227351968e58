import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, shippedNodeFlags, spawnGateway } from '../testing/gateway-child.ts';

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
    // The command that runs the gateway is the last one (the CLI's compiled JavaScript is brought up to date before it).
    const steps = start.split(' && ');
    expect(steps.at(-1)).toBe(`node ${shippedNodeFlags().join(' ')} bin/askdock.js start`);
    expect(steps.slice(0, -1).every((step) => !step.includes('bin/askdock.js'))).toBe(true);
  });
});

// The same allocations in a gateway and in a plain node process with the shipped flags: a churn that keeps about 10 MB
// alive and makes garbage in the old generation. The hook counts V8's full collections while the churn runs.
const churn = join(dir, 'churn.mjs');
writeFileSync(
  churn,
  `import { PerformanceObserver, constants } from 'node:perf_hooks';
let major = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++; }).observe({ entryTypes: ['gc'] });
process.on('SIGUSR2', () => {
  major = 0;
  const kept = [];
  for (let i = 0; i < 200000; i++) kept.push({ a: i, b: 'x' + i });
  const recent = [];
  for (let round = 0; round < 300; round++) {
    const batch = [];
    for (let i = 0; i < 20000; i++) batch.push({ a: i, b: [i, i] });
    recent.push(batch);
    if (recent.length > 5) recent.shift();
  }
  setTimeout(() => process.stderr.write('\\nFULL_GCS ' + major + ' ' + kept.length + '\\n'), 200);
});
process.stderr.write('\\nCHURN_READY\\n');
`,
);

/** Sends the churn signal to a process that loaded the hook and returns how many full collections it made. */
async function fullCollections(proc: ChildProcess, stderr: () => string): Promise<number> {
  proc.kill('SIGUSR2');
  let line: RegExpExecArray | null = null;
  await expect.poll(() => (line = /^FULL_GCS (\d+) /m.exec(stderr())), { timeout: 60_000 }).not.toBeNull();
  return Number(line![1]);
}

describe('the old generation of a gateway process', () => {
  it('[S5] askdock gateway bounds how far the old generation grows between full collections (its garbage stays a fraction of the live heap)', async () => {
    const env = { ...process.env, NODE_OPTIONS: `--import=${churn}` };
    const gateway = await spawnGateway(['--port', '0', '--db', join(dir, 'churn.db')], 60_000, env);
    const plain = spawn(process.execPath, [...shippedNodeFlags(), '-e', 'setInterval(() => {}, 1000)'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let plainErr = '';
    plain.stderr!.on('data', (chunk: Buffer) => (plainErr += chunk.toString()));
    try {
      // The gateway loaded the hook before it listened; the plain process says when it has.
      await expect.poll(() => plainErr, { timeout: 30_000 }).toContain('CHURN_READY');
      const inGateway = await fullCollections(gateway.proc, () => gateway.stderr.join(''));
      const inPlain = await fullCollections(plain, () => plainErr);
      // V8's own factor (the plain process) lets this churn's old generation grow to several times what survives, the
      // gateway's to 1.2 times: about three times as many full collections (5 against 7 without the bound).
      expect(inPlain).toBeGreaterThan(0);
      expect(inGateway, `${inGateway} full collections in the gateway, ${inPlain} in plain node`).toBeGreaterThanOrEqual(2 * inPlain);
    } finally {
      plain.kill('SIGKILL');
      gateway.proc.kill('SIGTERM');
      await gateway.exit;
    }
  }, 120_000);
});
