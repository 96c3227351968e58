/**
 * X1: `askdock hook` runs once per tool call, so its start is on every call's path. Measures, for the compiled bin
 * (dist-cli/) and for the TypeScript sources run through tsx (the baseline), the time from spawning the process to
 * its approval question reaching an operator of the gateway; each question is then skipped so the hook ends.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connectOperator, startBenchGateway } from './lib/bench-gateway.ts';
import { summarize, type Summary } from './lib/stats.ts';

/** `bareNode`: `node -e ''` from spawn to exit, the floor any Node bin starts from on this machine now. */
export type HookStart = { compiled: Summary; sources: Summary; bareNode: Summary };

/** X1: a hook's start, from the process's spawn to its question at the gateway, p50. */
export const HOOK_START_AIM_MS = 150;

export async function measureHookStart(root: string, runs = 20, sourceRuns = 5): Promise<HookStart> {
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the CLI did not compile (npm run build:cli)');
  const event = readFileSync(join(root, 'src', 'testing', 'hook-fixtures', 'claude-bash.json'));
  const gateway = await startBenchGateway();
  const operator = await connectOperator(gateway, 'bench-hook-operator');
  try {
    const once = async (sources: boolean): Promise<number> => {
      const asked = new Promise<string>((done) => {
        const off = operator.on('question.requested', (p) => {
          off();
          done(p.question.id);
        });
      });
      const started = performance.now();
      const child = spawn(process.execPath, [join(root, 'bin', 'askdock.js'), 'hook', '--url', gateway.wsUrl, '--token', gateway.agentToken], {
        stdio: ['pipe', 'ignore', 'ignore'],
        env: { ...process.env, ASKDOCK_CLI_SOURCES: sources ? '1' : '0' },
      });
      child.stdin.end(event);
      const ended = new Promise((done) => child.once('close', done));
      const id = await asked;
      const took = performance.now() - started;
      await operator.request('question.resolve', { id, skip: true });
      await ended;
      return took;
    };
    // One warm-up of each: the first start also fills the OS file cache.
    await once(false);
    await once(true);
    const compiled: number[] = [];
    for (let i = 0; i < runs; i++) compiled.push(await once(false));
    const viaTsx: number[] = [];
    for (let i = 0; i < sourceRuns; i++) viaTsx.push(await once(true));
    const bare: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await new Promise((done) => spawn(process.execPath, ['-e', ''], { stdio: 'ignore' }).once('close', done));
      bare.push(performance.now() - started);
    }
    return { compiled: summarize(compiled), sources: summarize(viaTsx), bareNode: summarize(bare) };
  } finally {
    operator.close();
    await gateway.close();
  }
}
