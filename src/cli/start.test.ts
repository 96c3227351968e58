import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../client/client.ts';
import { createNodeClient } from '../client/node.ts';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { item } from '../testing/gateway-harness.ts';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/askdock.js');

type Proc = { child: ChildProcess; out: () => string; err: () => string; exited: Promise<number | null> };

function spawnAskdock(args: string[], cwd: string): Proc {
  const env = { ...process.env };
  delete env.ASKDOCK_URL;
  delete env.ASKDOCK_TOKEN;
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((ok) => child.once('close', (code) => ok(code)));
  return { child, out: () => out, err: () => err, exited };
}

async function waitFor(read: () => string, pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = read().match(pattern);
    if (m) return m;
    if (Date.now() > deadline) throw new Error(`no ${pattern} in output within ${timeoutMs} ms:\n${read()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function echoes(operator: GatewayClient, text: string): Promise<string> {
  const { session } = await operator.request('sessions.create', {});
  const reply = nextEvent(operator, 'chat', (p) => p.sessionKey === session.key && p.message.role === 'assistant' && p.state === 'final');
  await operator.request('chat.send', { sessionKey: session.key, message: text, idempotencyKey: `start-test-${Date.now()}` });
  return (await reply).message.text;
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** `askdock start` in a fresh folder, until the test ends: the folder, the process, and where it listens. */
async function startInFolder() {
  const cwd = mkdtempSync(join(tmpdir(), 'askdock-start-'));
  cleanup.push(() => rmSync(cwd, { recursive: true, force: true }));
  const proc = spawnAskdock(['start', '--port', '0', '--no-open', '--no-build'], cwd);
  cleanup.push(() => {
    if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
  });
  const [, host, port] = await waitFor(proc.out, /^askdock gateway listening on http:\/\/(127\.0\.0\.1):(\d+)$/m);
  return { cwd, proc, host, port };
}

describe('askdock start', { timeout: 120_000 }, () => {
  it('prints the address and the Control UI link, serves the demo agent, and stops cleanly on Ctrl+C', async () => {
    const { cwd, proc, host, port } = await startInFolder();
    const [, token] = await waitFor(proc.out, new RegExp(`^Control UI: http://${host}:${port}/\\?token=(\\S+)$`, 'm'));
    expect(existsSync(join(cwd, '.askdock', 'askdock.db'))).toBe(true);
    expect(existsSync(join(cwd, '.askdock', 'identities.json'))).toBe(true);

    const operator = createNodeClient({ url: `ws://${host}:${port}/ws`, token: decodeURIComponent(token), client: { name: 't', mode: 'ui' } });
    await operator.start();
    cleanup.push(() => operator.close());
    expect(await echoes(operator, 'hello start')).toBe('Echo: hello start');

    // `askdock ask` run in the same directory finds the agent token in ./.askdock/identities.json.
    const requested = nextEvent(operator, 'question.requested');
    const ask = spawnAskdock(['ask', 'Ship it?', '-o', 'Yes', '-o', 'No', '--url', `ws://${host}:${port}`], cwd);
    const { question } = await requested;
    await operator.request('question.resolve', { id: question.id, answers: { answer: ['Yes'] } });
    expect(await ask.exited).toBe(0);
    expect(ask.out()).toBe('Yes\n');

    // Cleanly: one Ctrl+C ends it with 0 (a stop that hangs fails on the test's timeout; a second Ctrl+C would exit 130).
    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
    expect(proc.err()).toContain('askdock start: stopping');
    // The terminal shows the friendly lines, no JSON log lines; the JSON log is in the file it names.
    const [, logFile] = await waitFor(proc.out, /^gateway log: (.+)$/m);
    expect(logFile).toBe(join(cwd, '.askdock', 'gateway.log'));
    for (const line of [...proc.out().split('\n'), ...proc.err().split('\n')]) expect(line.startsWith('{'), line).toBe(false);
    const logged = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { msg?: string });
    expect(logged.some((e) => e.msg === 'connection opened')).toBe(true);
  }, 60_000); // a cold start of the bin, the demo agent and a chat round trip: allow a busy machine

  it('[L3][L8] says at start whether its audit log is signed: a fresh folder gets its key on the first start', async () => {
    const { cwd, proc } = await startInFolder();
    await waitFor(proc.out, /^audit: signed \(\S+\)$/m);
    expect(existsSync(join(cwd, '.askdock', 'audit.key'))).toBe(true);
    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
  });

  it('[A6][T6] Claude Code, Codex and MCP connect as an agent of their own, printed by start: the demo agent never answers in their sessions', async () => {
    const { cwd, proc, host, port } = await startInFolder();
    const [, token] = await waitFor(proc.out, /^Control UI: \S+\?token=(\S+)$/m);
    const [, integrationToken] = await waitFor(proc.out, /^agent token for Claude Code, Codex and MCP \(agent "integrations", new in .+\): (\S+)$/m);
    const saved = JSON.parse(readFileSync(join(cwd, '.askdock', 'identities.json'), 'utf8')) as { identities: { id: string; token: string; role: string }[] };
    expect(saved.identities.find((i) => i.id === 'integrations')).toMatchObject({ role: 'agent', token: integrationToken });
    const operator = createNodeClient({ url: `ws://${host}:${port}/ws`, token: decodeURIComponent(token), client: { name: 't', mode: 'ui' } });
    await operator.start();
    cleanup.push(() => operator.close());

    // The docs' quick start: the hook run in the folder of `askdock start`, with no token of its own.
    const requested = nextEvent(operator, 'question.requested');
    const env = { ...process.env };
    delete env.ASKDOCK_TOKEN;
    const hook = spawn(process.execPath, [BIN, 'hook', '--url', `ws://${host}:${port}`], { cwd, env, stdio: ['pipe', 'ignore', 'ignore'] });
    hook.stdin!.end(readFileSync(resolve(dirname(BIN), '../src/testing/hook-fixtures/claude-bash.json')));
    const { question } = await requested;
    await operator.request('question.resolve', { id: question.id, skip: true });
    const { sessions } = await operator.request('sessions.list', {});
    const own = sessions.find((x) => x.key === question.sessionKey)!;
    expect(own).toMatchObject({ agentId: 'integrations' });
    expect(own.title).toMatch(/^Claude Code · shop · /);

    await operator.request('chat.send', { sessionKey: own.key, message: 'hello from the dock', idempotencyKey: 'start-test-integration' });
    // The demo agent answers its own sessions (a message sent after that one is echoed), and nothing in this one.
    expect(await echoes(operator, 'after it')).toBe('Echo: after it');
    const { messages } = await operator.request('chat.history', { sessionKey: own.key });
    expect(messages.map((m) => m.role)).toEqual(['user']);
  }, 90_000);

  it('[U11][Q7] Ctrl+C and a new start keep the demo question pending: the demo agent takes it back and reports the answer', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'askdock-start-'));
    cleanup.push(() => rmSync(cwd, { recursive: true, force: true }));
    const GRACE_S = 3;
    const start = async () => {
      const proc = spawnAskdock(['start', '--port', '0', '--no-open', '--no-build', '--requester-grace', String(GRACE_S)], cwd);
      cleanup.push(() => {
        if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
      });
      const [, host, port] = await waitFor(proc.out, /^askdock gateway listening on http:\/\/(127\.0\.0\.1):(\d+)$/m);
      const [, token] = await waitFor(proc.out, /^Control UI: \S+\?token=(\S+)$/m);
      const operator = createNodeClient({ url: `ws://${host}:${port}/ws`, token: decodeURIComponent(token), client: { name: 't', mode: 'ui' } });
      await operator.start();
      cleanup.push(() => operator.close());
      return { proc, operator, host, port };
    };

    const first = await start();
    const { session } = await first.operator.request('sessions.create', {});
    const requested = nextEvent(first.operator, 'question.requested', (p) => p.question.sessionKey === session.key);
    await first.operator.request('chat.send', { sessionKey: session.key, message: 'deploy', idempotencyKey: 'start-test-deploy' });
    const { question } = await requested;
    first.proc.child.kill('SIGINT');
    expect(await first.proc.exited).toBe(0);

    const second = await start();
    expect((await second.operator.request('question.get', { id: question.id })).question.status).toBe('pending');
    // Past the requester grace since the gateway started: the demo agent is the same requester again, so nothing was cancelled.
    // The barrier: an asker that leaves after the start has its question cancelled at the end of its own, later grace.
    const saved = JSON.parse(readFileSync(join(cwd, '.askdock', 'identities.json'), 'utf8')) as { identities: { id: string; token: string }[] };
    const integrations = saved.identities.find((i) => i.id === 'integrations')!.token;
    const leaver = createNodeClient({ url: `ws://${second.host}:${second.port}/ws`, token: integrations, client: { id: 'leaver', name: 't', mode: 'cli' } });
    cleanup.push(() => leaver.close());
    await leaver.start();
    const { id: left } = await leaver.request('question.request', { questions: [item()], timeoutMs: 3_600_000 });
    const leftCancelled = nextEvent(second.operator, 'question.resolved', (p) => p.id === left);
    leaver.close();
    expect(await leftCancelled).toMatchObject({ status: 'cancelled', reason: 'requester-inactive' });
    expect((await second.operator.request('question.get', { id: question.id })).question).toMatchObject({ status: 'pending' });

    const report = nextEvent(
      second.operator,
      'chat',
      (p) => p.sessionKey === session.key && p.message.role === 'assistant' && p.state === 'final' && p.message.text.startsWith('Got:'),
    );
    await second.operator.request('question.resolve', { id: question.id, answers: { env: ['Production'], notify: ['Email'] } });
    expect((await report).message).toMatchObject({ text: 'Got: Environment: Production; Notify: Email', runId: question.runId });
    second.proc.child.kill('SIGINT');
    expect(await second.proc.exited).toBe(0);
  }, 90_000);

  it('[A1] --config runs the demo setup with the team\'s identities (the demo agent as its agent); --public-url is the printed address', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'askdock-start-config-'));
    cleanup.push(() => rmSync(cwd, { recursive: true, force: true }));
    const config = {
      identities: [
        { id: 'alice', token: 'alice-team-token-0123456789ab', role: 'operator', scopes: ['operator.admin'] },
        { id: 'team-agent', token: 'team-agent-token-0123456789ab', role: 'agent', scopes: ['agent.run'] },
      ],
      allowedHosts: ['askdock.team.example'],
    };
    writeFileSync(join(cwd, 'team.json'), JSON.stringify(config));
    const proc = spawnAskdock(['start', '--port', '0', '--no-open', '--no-build', '--config', 'team.json', '--public-url', 'https://askdock.team.example/'], cwd);
    cleanup.push(() => {
      if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
    });
    const [, port] = await waitFor(proc.out, /^askdock gateway listening on http:\/\/127\.0\.0\.1:(\d+)$/m);
    // The team's people sign in with their own tokens: the link carries none.
    await waitFor(proc.out, /^Control UI: https:\/\/askdock\.team\.example$/m);
    expect(proc.out()).not.toContain('token=');
    expect(existsSync(join(cwd, '.askdock', 'identities.json'))).toBe(false);

    const operator = createNodeClient({ url: `ws://127.0.0.1:${port}/ws`, token: config.identities[0]!.token, client: { name: 't', mode: 'ui' } });
    await operator.start();
    cleanup.push(() => operator.close());
    expect(operator.hello?.server.publicUrl).toBe('https://askdock.team.example');
    expect(await echoes(operator, 'hello team')).toBe('Echo: hello team');
    const { sessions } = await operator.request('sessions.list', {});
    expect(sessions.every((s) => s.agentId === 'team-agent')).toBe(true);
    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
  });

  it('exits 2 naming a bad flag', async () => {
    const proc = spawnAskdock(['start', '--port', 'eighty'], tmpdir());
    expect(await proc.exited).toBe(2);
    expect(proc.err()).toContain('--port: must be a port number');
  });
});

describe('askdock demo-agent', { timeout: 120_000 }, () => {
  /** Runs the demo agent with `args` against `t`: it connects, echoes, and exits 0 on Ctrl+C. */
  async function servesUntilCtrlC(t: TestGateway, args: string[]): Promise<void> {
    const proc = spawnAskdock(args, t.dir);
    cleanup.push(() => {
      if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
    });
    await waitFor(proc.err, /connected to/);
    expect(await echoes(t.operator, 'ping')).toBe('Echo: ping');
    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
  }

  it('serves a gateway until Ctrl+C', async () => {
    const t = await startTestGateway();
    cleanup.push(() => t.close());
    await servesUntilCtrlC(t, ['demo-agent', '--url', t.url, '--token', t.agentToken]);
  });

  it('[A1] takes every flag as --flag=VALUE too: a configured token starting with "-" passes as --token=VALUE', async () => {
    const token = '-starts-with-a-dash-0123456789';
    const t = await startTestGateway({
      config: {
        identities: [
          { id: 'operator', token: 'operator-token-0123456789abcdef', role: 'operator', scopes: ['operator.admin'] },
          { id: 'agent', token, role: 'agent', scopes: ['agent.run'] },
        ],
      },
    });
    cleanup.push(() => t.close());
    await servesUntilCtrlC(t, ['demo-agent', `--url=${t.url}`, `--token=${token}`]);
  });

  it('exits 1 when the gateway cannot be reached', async () => {
    const proc = spawnAskdock(['demo-agent', '--url', 'ws://127.0.0.1:9', '--token', 'abcdefgh'], tmpdir());
    expect(await proc.exited).toBe(1);
    expect(proc.err()).toContain('cannot reach the gateway');
  });
});
