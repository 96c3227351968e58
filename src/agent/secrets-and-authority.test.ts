import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../gateway/config.ts';
import { AskdockError } from '../protocol/index.ts';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { connect, isSuperseded } from './sdk.ts';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/askdock.js');
const VALUE = 'ghp_SecretValueNeverShown0123456789abcd';
type TextContent = { type: 'text'; text: string };

function askdock(args: string[], env: Record<string, string>, cwd: string) {
  const base = { ...process.env };
  delete base.ASKDOCK_URL;
  delete base.ASKDOCK_TOKEN;
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((ok) => child.once('close', (code) => ok({ code, stdout, stderr })));
}

async function startMcp(t: TestGateway, token: string) {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--url', t.url, '--token', token], cwd: t.dir, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: 'askdock-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr };
}

// Each test starts `askdock` processes; on a loaded machine one start alone can take seconds.
describe('[W4] secrets through the MCP server, the SDK and the CLI', { timeout: 90_000 }, () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway();
  });
  afterAll(async () => {
    await t.close();
  });

  it('[W4] request_secret resolves with the secret\'s name and the command that reads it, never the value', async () => {
    const mcp = await startMcp(t, t.agentToken);
    try {
      const requested = nextEvent(t.operator, 'secret.requested');
      const call = mcp.client.callTool({ name: 'request_secret', arguments: { name: 'GITHUB_TOKEN', description: 'To open the pull request' } });
      const { request } = await requested;
      expect(request).toMatchObject({ name: 'GITHUB_TOKEN', description: 'To open the pull request', status: 'pending' });
      await t.operator.request('secret.provide', { id: request.id, value: VALUE });
      const result = await call;
      expect(result.isError).toBeFalsy();
      const text = (result.content as TextContent[]).map((c) => c.text).join('\n');
      expect(text).toContain('GITHUB_TOKEN');
      // The running bin by its absolute path, never `npx askdock` (which outside the checkout asks the registry).
      const command = `${BIN} secret get GITHUB_TOKEN`;
      expect(text).toContain(command);
      expect(text).not.toContain('npx');
      expect(JSON.stringify(result)).not.toContain(VALUE);
      expect(result.structuredContent).toEqual({ status: 'stored', name: 'GITHUB_TOKEN', command });
      const { tools } = await mcp.client.listTools();
      const described = tools.find((tool) => tool.name === 'request_secret')?.description ?? '';
      expect(described).toContain(`${BIN} secret get OPENAI_API_KEY`);
      expect(described).not.toContain('npx');
      // The command as told, run by a shell in another folder, prints the value.
      const shell = await new Promise<{ code: number | null; stdout: string }>((ok) => {
        const child = spawn('sh', ['-c', command], { cwd: tmpdir(), env: { ...process.env, ASKDOCK_URL: t.url, ASKDOCK_TOKEN: t.agentToken }, stdio: ['ignore', 'pipe', 'ignore'] });
        let stdout = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.once('close', (code) => ok({ code, stdout }));
      });
      expect(shell).toEqual({ code: 0, stdout: `${VALUE}\n` });
      expect(mcp.stderr.join('')).not.toContain(VALUE);

      // A shell command run as the agent reads it.
      const got = await askdock(['secret', 'get', 'GITHUB_TOKEN'], { ASKDOCK_URL: t.url, ASKDOCK_TOKEN: t.agentToken }, t.dir);
      expect(got).toMatchObject({ code: 0, stdout: `${VALUE}\n` });
      const flags = await askdock(['secret', 'get', 'GITHUB_TOKEN', '--url', t.url, '--token', t.agentToken], {}, t.dir);
      expect(flags.stdout).toBe(`${VALUE}\n`);
    } finally {
      await mcp.client.close();
    }
  });

  it('[W4] a skipped request_secret says so; a bad call names every field', async () => {
    const mcp = await startMcp(t, t.agentToken);
    try {
      const requested = nextEvent(t.operator, 'secret.requested');
      const call = mcp.client.callTool({ name: 'request_secret', arguments: { name: 'SKIPPED_ONE', description: 'x' } });
      const { request } = await requested;
      await t.operator.request('secret.provide', { id: request.id, skip: true });
      const result = await call;
      expect(result.structuredContent).toEqual({ status: 'skipped', name: 'SKIPPED_ONE' });
      const bad = await mcp.client.callTool({ name: 'request_secret', arguments: { name: 'lower', description: ' ' } });
      expect(bad.isError).toBe(true);
      const badText = (bad.content as TextContent[])[0].text;
      expect(badText).toContain('name:');
      expect(badText).toContain('description:');
    } finally {
      await mcp.client.close();
    }
  });

  it('[W4] askdock secret get: exit 1 naming a missing secret, exit 2 for a bad name, FORBIDDEN without agent.secrets', async () => {
    const env = { ASKDOCK_URL: t.url, ASKDOCK_TOKEN: t.agentToken };
    const missing = await askdock(['secret', 'get', 'NOT_THERE'], env, t.dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('NOT_THERE');
    const bad = await askdock(['secret', 'get', 'not-a-name'], env, t.dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('NAME');
    const operator = await askdock(['secret', 'get', 'GITHUB_TOKEN'], { ASKDOCK_URL: t.url, ASKDOCK_TOKEN: t.operatorToken }, t.dir);
    expect(operator.code).toBe(1);
    expect(operator.stderr).toContain('agent.secrets');
    expect(operator.stdout).toBe('');
  });

  it('[W4] the SDK asks with requestSecret() and reads with getSecret(); an abort cancels the request', async () => {
    const agent = await connect({ url: t.url, token: t.agentToken });
    try {
      const requested = nextEvent(t.operator, 'secret.requested', (p) => p.request.name === 'SDK_KEY');
      const asked = agent.requestSecret({ name: 'SDK_KEY', description: 'for the SDK test' });
      const { request } = await requested;
      await t.operator.request('secret.provide', { id: request.id, value: 'sdk-value-123' });
      expect(await asked).toEqual({ status: 'stored', name: 'SDK_KEY' });
      expect(await agent.getSecret('SDK_KEY')).toBe('sdk-value-123');
      await expect(agent.getSecret('NOPE')).rejects.toMatchObject({ code: 'SECRET_NOT_FOUND' });

      const controller = new AbortController();
      const second = nextEvent(t.operator, 'secret.requested', (p) => p.request.name === 'ABORTED');
      const aborted = agent.requestSecret({ name: 'ABORTED', description: 'x' }, { signal: controller.signal });
      aborted.catch(() => undefined);
      const { request: r2 } = await second;
      const resolved = nextEvent(t.operator, 'secret.resolved', (p) => p.id === r2.id);
      controller.abort();
      await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
      expect(await resolved).toMatchObject({ status: 'cancelled' });
    } finally {
      agent.close();
    }
  });

  it('[RU2] the SDK ends a superseded run when it tries to speak', async () => {
    const agent = await connect({ url: t.url, token: t.agentToken });
    try {
      const { session } = await t.operator.request('sessions.create', {});
      const runId = await agent.startRun(session.key);
      const requested = nextEvent(t.operator, 'question.requested');
      const answer = agent.askUser(
        { questions: [{ id: 'env', header: 'Env', question: 'Where?', options: [{ label: 'A' }, { label: 'B' }] }] },
        { sessionKey: session.key, runId },
      );
      const { question } = await requested;
      await t.operator.request('chat.send', { sessionKey: session.key, message: 'actually, do something else', idempotencyKey: 'ru2-sdk-000001' });
      await t.operator.request('question.resolve', { id: question.id, answers: { env: ['A'] } });
      expect((await answer).status).toBe('answered');
      const ended = nextEvent(t.operator, 'run.ended', (p) => p.runId === runId);
      const err = await agent.say(runId, 'Deploying to A').catch((e: unknown) => e);
      expect(isSuperseded(err)).toBe(true);
      expect(await ended).toMatchObject({ stopReason: 'cancelled' });
    } finally {
      agent.close();
    }
  });
});

describe('[RU1] a denied identity gets no tool', { timeout: 90_000 }, () => {
  const config: GatewayConfig = {
    identities: [
      { id: 'operator', token: 'operator-token-0123456789', role: 'operator', scopes: ['operator.admin'] },
      { id: 'bot', token: 'bot-token-0123456789-abcd', role: 'agent', scopes: ['agent.run'], deny: ['ask_user'] },
    ],
  };
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config });
  });
  afterAll(async () => {
    await t.close();
  });

  it('[RU1] askdock mcp lists neither ask_user nor request_secret and says why on stderr', async () => {
    const mcp = await startMcp(t, 'bot-token-0123456789-abcd');
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools).toEqual([]);
      expect(mcp.stderr.join('')).toMatch(/denies it ask_user/);
      const call = await mcp.client.callTool({ name: 'ask_user', arguments: { questions: [{ id: 'a', header: 'A', question: 'Q?', options: [{ label: 'X' }, { label: 'Y' }] }] } });
      expect(call.isError).toBe(true);
    } finally {
      await mcp.client.close();
    }
  });

  it('[RU1] the SDK reports a clear FORBIDDEN error with reason denied', async () => {
    const agent = await connect({ url: t.url, token: 'bot-token-0123456789-abcd' });
    try {
      expect(agent.mayAsk).toBe(false);
      const err = await agent
        .askUser({ questions: [{ id: 'a', header: 'A', question: 'Q?', options: [{ label: 'X' }, { label: 'Y' }] }] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AskdockError);
      expect(err).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'denied' } });
      expect((err as Error).message).toContain('ask_user');
      await expect(agent.requestSecret({ name: 'X', description: 'x' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    } finally {
      agent.close();
    }
  });
});
