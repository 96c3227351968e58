import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { watchCaller } from './caller-gone.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const SERVER = [process.execPath, '--import', pathToFileURL(resolve(ROOT, 'node_modules/tsx/dist/loader.mjs')).href, resolve(ROOT, 'src/testing/elicit-server.ts')];
const fixture = (name: string) => readFileSync(resolve(ROOT, 'src/testing/hook-fixtures', `${name}.json`), 'utf8');

/** Whether any process of the process group `pgid` is still running. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `npx askdock ARGS` from the worktree in a process group of its own (as an agent runs a hook command), so that a
 * SIGTERM can go to the npx process alone, as when the agent stops its hook and npx does not pass it on.
 */
function startThroughNpx(args: string[], stdin: 'pipe' | number = 'pipe'): { npx: ChildProcess; out: () => string; err: () => string } {
  const npx = spawn('npx', ['--yes', 'askdock', ...args], { cwd: ROOT, detached: true, stdio: [stdin, 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  npx.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  npx.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  npx.stdin?.on('error', () => undefined);
  return { npx, out: () => stdout, err: () => stderr };
}

/** SIGTERM to npx only, then: the question is cancelled at the gateway and nothing of the group is left running. */
async function killNpxOnly(t: TestGateway, npx: ChildProcess, questionId: string) {
  const resolved = nextEvent(t.operator, 'question.resolved', (p) => p.id === questionId, 60_000);
  process.kill(npx.pid!, 'SIGTERM');
  expect(await resolved).toMatchObject({ status: 'cancelled' });
  await expect.poll(() => groupAlive(npx.pid!), { timeout: 60_000, interval: 200 }).toBe(false);
}

describe('a hook or proxy whose caller goes away', { timeout: 180_000 }, () => {
  it('[X6] `npx askdock hook` sent SIGTERM (npx passes it on to nobody): the question is cancelled and the hook is gone', async () => {
    const t = await startTestGateway();
    const run = startThroughNpx(['hook', '--url', t.url, '--token', t.agentToken]);
    try {
      const requested = nextEvent(t.operator, 'question.requested', () => true, 120_000);
      run.npx.stdin!.end(fixture('claude-bash'));
      const { question } = await requested;
      await killNpxOnly(t, run.npx, question.id);
      expect(run.out()).toBe('');
      expect(run.err()).toContain('the question was withdrawn');
    } finally {
      if (groupAlive(run.npx.pid!)) process.kill(-run.npx.pid!, 'SIGKILL');
      await t.close();
    }
  });

  it('[X6][X5] `npx askdock mcp-proxy` sent SIGTERM: the elicitation being asked is cancelled and the proxy is gone', async () => {
    const t = await startTestGateway();
    // The client's end of stdin stays open, as a client that is not a Node process holds it (a FIFO, not a socket
    // pair that npx's exit could shut down): only the parent going away tells the proxy.
    const fifo = join(t.dir, 'client-stdin');
    execFileSync('mkfifo', [fifo]);
    const stdin = openSync(fifo, 'r+');
    const run = startThroughNpx(['mcp-proxy', '--url', t.url, '--token', t.agentToken, '--', ...SERVER], stdin);
    try {
      const requested = nextEvent(t.operator, 'question.requested', () => true, 120_000);
      const send = (m: unknown) => writeSync(stdin, JSON.stringify(m) + '\n');
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'deploy', arguments: {} } });
      const { question } = await requested;
      await killNpxOnly(t, run.npx, question.id);
      expect(run.err()).toContain('withdrawing what is being asked');
    } finally {
      if (groupAlive(run.npx.pid!)) process.kill(-run.npx.pid!, 'SIGKILL');
      closeSync(stdin);
      await t.close();
    }
  });
});

describe('watchCaller', () => {
  it('[X6] a new parent process (re-parented to init or a subreaper) tells once; the same parent never', async () => {
    let parent = 100;
    const told: string[] = [];
    const stdout = new PassThrough();
    const watch = watchCaller((why) => told.push(why), { parentPid: 100, currentParent: () => parent, intervalMs: 5, stdout });
    let checks = 0;
    const counted = watchCaller(() => undefined, { parentPid: 100, currentParent: () => (checks++, 100), intervalMs: 5, stdout });
    await expect.poll(() => checks, { timeout: 30_000 }).toBeGreaterThan(3);
    expect(told).toEqual([]);
    parent = 1;
    await expect.poll(() => told.length, { timeout: 30_000 }).toBe(1);
    expect(told[0]).toContain('pid 100');
    await expect.poll(() => checks, { timeout: 30_000 }).toBeGreaterThan(8);
    expect(told).toHaveLength(1);
    watch.stop();
    counted.stop();
  });

  it('[X6] stdout failing (EPIPE) or closing tells; after stop() an EPIPE neither tells nor throws', () => {
    const told: string[] = [];
    const failing = new PassThrough();
    watchCaller((why) => told.push(why), { parentPid: 1, currentParent: () => 1, stdout: failing });
    failing.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(told).toEqual(['its output cannot be written (EPIPE)']);
    const closing = new PassThrough();
    watchCaller((why) => told.push(why), { parentPid: 1, currentParent: () => 1, stdout: closing });
    closing.emit('close');
    expect(told[1]).toBe('its output was closed');
    const stopped = new PassThrough();
    watchCaller((why) => told.push(why), { parentPid: 1, currentParent: () => 1, stdout: stopped }).stop();
    expect(() => stopped.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).not.toThrow();
    expect(told).toHaveLength(2);
  });
});
