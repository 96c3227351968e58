/**
 * X1: `askdock hook` runs once per tool call, so its start is on every call's path. Measures the time from spawning
 * the process to its approval question reaching an operator of the gateway, for the bin as shipped (the hook's
 * bundle, dist-cli/hook/), for the compiled modules without the bundle (dist-cli/cli/) and for the TypeScript sources
 * through tsx; each question is then skipped so the hook ends. `node -e ''` (spawn to exit) runs in the same loop,
 * one after each hook, so the floor any Node bin starts from is measured under the same load: the hook's p50 less the
 * floor's is the part askdock's own code spends (loading, connecting, two requests), and reads the same on a busy
 * machine as on a quiet one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { connectOperator, startBenchGateway } from './lib/bench-gateway.ts';
import { summarize, type Summary } from './lib/stats.ts';

/**
 * `bundled`: the bin as shipped; `modules`: dist-cli/cli/main.js run directly (the compiled modules, no bundle);
 * `sources`: through tsx; `bareNode`: `node -e ''`, spawn -> exit, alternating with the bundled hook.
 */
export type HookStart = { bundled: Summary; modules: Summary; sources: Summary; bareNode: Summary; overNodeP50: number };

/** X1: a hook's start, from the process's spawn to its question at the gateway, p50. */
export const HOOK_START_AIM_MS = 150;
/**
 * X1: the same aim less what an empty Node process takes on a quiet two-core machine (~50 ms): the hook's p50 over
 * `node -e ''`'s, measured in the same loop, which a loaded machine does not move much.
 */
export const HOOK_OVER_NODE_AIM_MS = 100;

type Variant = 'bundled' | 'modules' | 'sources';

/** The command line of each variant (after `node`), and the env it runs with. */
function commandOf(root: string, variant: Variant, flags: string[]): { args: string[]; env: NodeJS.ProcessEnv } {
  const bin = join(root, 'bin', 'askdock.js');
  if (variant === 'bundled') return { args: [bin, 'hook', ...flags], env: { ASKDOCK_CLI_SOURCES: '0' } };
  if (variant === 'sources') return { args: [bin, 'hook', ...flags], env: { ASKDOCK_CLI_SOURCES: '1' } };
  // What the bin ran before the hook had a bundle of its own: the command table, then the compiled hook module.
  const main = pathToFileURL(join(root, 'dist-cli', 'cli', 'main.js')).href;
  const code = `const { main } = await import(${JSON.stringify(main)}); process.exitCode = await main(process.argv.slice(1));`;
  return { args: ['--max-semi-space-size=8', '--input-type=module', '-e', code, 'hook', ...flags], env: {} };
}

export async function measureHookStart(root: string, runs = 20, sourceRuns = 5): Promise<HookStart> {
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the CLI did not compile (npm run build:cli)');
  const stamp = JSON.parse(readFileSync(join(root, 'dist-cli', '.build.json'), 'utf8')) as { hook?: string };
  if (!stamp.hook) throw new Error('dist-cli/ has no hook bundle (npm run build:cli said why)');
  const event = readFileSync(join(root, 'src', 'testing', 'hook-fixtures', 'claude-bash.json'));
  const gateway = await startBenchGateway();
  const operator = await connectOperator(gateway, 'bench-hook-operator');
  try {
    const once = async (variant: Variant): Promise<number> => {
      const asked = new Promise<string>((done) => {
        const off = operator.on('question.requested', (p) => {
          off();
          done(p.question.id);
        });
      });
      const { args, env } = commandOf(root, variant, ['--url', gateway.wsUrl, '--token', gateway.agentToken]);
      const started = performance.now();
      const child = spawn(process.execPath, args, { stdio: ['pipe', 'ignore', 'ignore'], env: { ...process.env, ...env } });
      child.stdin.end(event);
      const ended = new Promise((done) => child.once('close', done));
      const id = await asked;
      const took = performance.now() - started;
      await operator.request('question.resolve', { id, skip: true });
      await ended;
      return took;
    };
    const bareOnce = async (): Promise<number> => {
      const started = performance.now();
      await new Promise((done) => spawn(process.execPath, ['-e', ''], { stdio: 'ignore' }).once('close', done));
      return performance.now() - started;
    };
    // One warm-up of each: the first start also fills the OS file cache.
    for (const variant of ['bundled', 'modules', 'sources'] as const) await once(variant);
    await bareOnce();
    const samples = { bundled: [] as number[], modules: [] as number[], sources: [] as number[], bare: [] as number[] };
    // Interleaved, so a change in the machine's load falls on all of them alike.
    for (let i = 0; i < runs; i++) {
      samples.bundled.push(await once('bundled'));
      samples.bare.push(await bareOnce());
      samples.modules.push(await once('modules'));
      if (i < sourceRuns) samples.sources.push(await once('sources'));
    }
    const bundled = summarize(samples.bundled);
    const bareNode = summarize(samples.bare);
    return { bundled, modules: summarize(samples.modules), sources: summarize(samples.sources), bareNode, overNodeP50: Math.round((bundled.p50 - bareNode.p50) * 100) / 100 };
  } finally {
    operator.close();
    await gateway.close();
  }
}
