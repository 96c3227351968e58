import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The node flags `askdock` runs with, from bin/askdock.js's shebang, so tests start the gateway as it ships (S5). */
export function shippedNodeFlags(): string[] {
  const shebang = readFileSync(resolve(REPO, 'bin/askdock.js'), 'utf8').split('\n', 1)[0];
  const words = shebang.replace(/^#!/, '').trim().split(/\s+/);
  return words.slice(words.indexOf('node') + 1);
}

export type GatewayChild = { proc: ChildProcess; url: string; wsUrl: string; stdout: string[]; stderr: string[]; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> };

/**
 * Runs `node bin/askdock.js gateway ...` and resolves once it prints its listening line. The bound only limits how long
 * a gateway that never listens is waited for: a busy machine can take a while to start node with tsx.
 */
export function spawnGateway(args: string[], timeoutMs = 60_000, env?: NodeJS.ProcessEnv): Promise<GatewayChild> {
  const proc = spawn(process.execPath, [...shippedNodeFlags(), 'bin/askdock.js', 'gateway', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => proc.on('exit', (code, signal) => done({ code, signal })));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      fail(new Error(`gateway did not start: ${stderr.join('')}`));
    }, timeoutMs);
    let buffered = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        stdout.push(line);
        const m = /^askdock gateway listening on (http:\/\/\S+)$/.exec(line);
        if (m) {
          clearTimeout(timer);
          ok({ proc, url: m[1], wsUrl: m[1].replace(/^http/, 'ws') + '/ws', stdout, stderr, exit });
        }
      }
    });
    proc.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    exit.then(({ code, signal }) => {
      clearTimeout(timer);
      fail(new Error(`gateway exited (${code ?? signal}) before listening: ${stderr.join('')}`));
    });
  });
}
