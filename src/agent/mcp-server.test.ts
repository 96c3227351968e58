import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASK_USER_DESCRIPTION, ASK_USER_INPUT_SCHEMA } from './ask-user.ts';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { testConfig } from '../testing/gateway-harness.ts';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/askdock.js');

const DEPLOY = {
  questions: [
    {
      id: 'deploy_target',
      header: 'Deploy',
      question: 'Where should I deploy?',
      options: [{ label: 'Staging (Recommended)' }, { label: 'Production' }],
    },
  ],
};

type TextContent = { type: 'text'; text: string };

async function startMcp(t: TestGateway, extra: string[] = []) {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--url', t.url, '--token', t.agentToken, ...extra],
    cwd: t.dir,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: 'askdock-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr };
}

describe('askdock mcp, driven by the official MCP client', { timeout: 90_000 }, () => {
  let t: TestGateway;
  let mcp: Awaited<ReturnType<typeof startMcp>>;

  beforeAll(async () => {
    t = await startTestGateway();
    mcp = await startMcp(t);
  }, 120_000);
  afterAll(async () => {
    await mcp?.client.close();
    await t?.close();
  });

  it('[T1] lists ask_user with its JSON Schema and the model guidance [T4]', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ask_user', 'request_secret']);
    expect(tools[0].inputSchema).toEqual(ASK_USER_INPUT_SCHEMA);
    expect(tools[0].description).toBe(ASK_USER_DESCRIPTION);
    expect(tools[0].outputSchema).toMatchObject({ type: 'object' });
  });

  it('[T2] tools/call returns the answer an operator gave through the gateway', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const call = mcp.client.callTool({ name: 'ask_user', arguments: DEPLOY });
    const { question } = await requested;
    expect(question.sessionKey).toMatch(/^s_/);
    await t.operator.request('question.resolve', { id: question.id, answers: { deploy_target: ['Staging (Recommended)'] } });
    const result = await call;
    const expected = { status: 'answered', answers: { answers: { deploy_target: ['Staging (Recommended)'] } } };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(expected);
    const [json, text] = result.content as TextContent[];
    expect(JSON.parse(json.text)).toEqual(expected);
    expect(text.text).toBe('Deploy: Staging');
  });

  it('[T2] a skip comes back as no_answer with the continue-on-your-own text', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const call = mcp.client.callTool({ name: 'ask_user', arguments: DEPLOY });
    const { question } = await requested;
    await t.operator.request('question.resolve', { id: question.id, skip: true });
    const result = await call;
    expect(result.structuredContent).toEqual({ status: 'no_answer', reason: 'skipped' });
    expect((result.content as TextContent[])[1].text).toMatch(/^No answer \(skipped\).*best judgment/);
  });

  it('[T3] a bad call returns isError with every field at fault', async () => {
    const result = await mcp.client.callTool({
      name: 'ask_user',
      arguments: {
        questions: [{ id: 'Deploy', header: 'D', question: 'Where?', options: [{ label: 'Staging' }, { label: 'Other' }] }],
        timeoutSeconds: 'soon',
      },
    });
    expect(result.isError).toBe(true);
    const [text, json] = result.content as TextContent[];
    expect(text.text).toContain('questions[0].id: id must be snake_case');
    expect(text.text).toContain('questions[0].options[1].label: must not be an authored "Other" option');
    expect(text.text).toContain('timeoutSeconds: timeoutSeconds must be an integer');
    const fields = [{ path: 'questions[0].id' }, { path: 'questions[0].options[1].label' }, { path: 'timeoutSeconds' }];
    // The protocol's shape (Q2: `details` lists `{path, problem}`), and the same list as `problems`.
    expect(JSON.parse(json.text).error).toMatchObject({ code: 'INVALID_REQUEST', details: fields, problems: fields });
    const { questions } = await t.operator.request('question.list', { status: 'pending' });
    expect(questions).toHaveLength(0);
  });

  it('[T5] MCP cancellation cancels the question at the gateway', async () => {
    const controller = new AbortController();
    const requested = nextEvent(t.operator, 'question.requested');
    const call = mcp.client.callTool({ name: 'ask_user', arguments: DEPLOY }, undefined, { signal: controller.signal });
    call.catch(() => undefined);
    const { question } = await requested;
    const resolved = nextEvent(t.operator, 'question.resolved', (p) => p.id === question.id);
    controller.abort('the user pressed Esc');
    await expect(call).rejects.toThrow();
    // Sent by the server itself, still connected (Q7's grace would say requester-inactive). That it goes at once, before
    // the aborted ask ends, is the SDK's (sdk.test.ts), which the server asks through: checked there as an order.
    expect(await resolved).toMatchObject({ status: 'cancelled', reason: 'aborted' });
  });

  it('never writes anything but MCP frames to stdout', async () => {
    // Every line the client read parsed as JSON-RPC, or the calls above would have failed; stderr holds the logs.
    expect(mcp.stderr.join('')).toContain('askdock mcp: connected to');
  });
});

describe('askdock mcp lifecycle', () => {
  it('[T5] closing stdin cancels pending questions and exits', async () => {
    const t = await startTestGateway();
    try {
      const mcp = await startMcp(t);
      const requested = nextEvent(t.operator, 'question.requested');
      const call = mcp.client.callTool({ name: 'ask_user', arguments: DEPLOY });
      call.catch(() => undefined);
      const { question } = await requested;
      const resolved = nextEvent(t.operator, 'question.resolved', (p) => p.id === question.id);
      // The client ends stdin (and sends SIGTERM only if the server is still there 2 s later): the server's own
      // "stdin closed" line shows it acted on the closed stdin, however long a busy machine took.
      await mcp.transport.close();
      expect(await resolved).toMatchObject({ status: 'cancelled' });
      expect(mcp.stderr.join('')).toContain('stdin closed');
    } finally {
      await t.close();
    }
  });

  it('[T1] a client that sends initialize and tools/list and closes stdin at once still reads both answers', async () => {
    const t = await startTestGateway();
    try {
      const frames = [
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ];
      const child = spawn(process.execPath, [BIN, 'mcp', '--url', t.url, '--token', t.agentToken, '--session', 'piped'], { cwd: t.dir, stdio: ['pipe', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stdin.end(frames.map((f) => JSON.stringify(f) + '\n').join(''));
      const [code] = (await once(child, 'exit')) as [number];
      const replies = out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { id: number; result: { tools?: { name: string }[] } });
      expect(code).toBe(0);
      expect(replies.map((r) => r.id)).toEqual([1, 2]);
      expect(replies[1].result.tools?.map((tool) => tool.name)).toEqual(['ask_user', 'request_secret']);
    } finally {
      await t.close();
    }
  });

  it('[T1] binds questions to --session', async () => {
    const t = await startTestGateway();
    try {
      const { session } = await t.operator.request('sessions.create', { title: 'bound' });
      const mcp = await startMcp(t, ['--session', session.key]);
      const requested = nextEvent(t.operator, 'question.requested');
      const call = mcp.client.callTool({ name: 'ask_user', arguments: DEPLOY });
      const { question } = await requested;
      expect(question.sessionKey).toBe(session.key);
      await t.operator.request('question.resolve', { id: question.id, answers: { deploy_target: ['Production'] } });
      expect((await call).structuredContent).toEqual({ status: 'answered', answers: { answers: { deploy_target: ['Production'] } } });
      await mcp.client.close();
    } finally {
      await t.close();
    }
  });

  it('[errors] lists tools even when the gateway is down, and a call then says it is unreachable: UNAVAILABLE with retryable', async () => {
    const t = await startTestGateway();
    const url = t.url;
    await t.close();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--url', url, '--token', 'some-agent-token'],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'askdock-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools[0].name).toBe('ask_user');
      const result = await client.callTool({ name: 'ask_user', arguments: DEPLOY });
      expect(result.isError).toBe(true);
      expect((result.content as TextContent[])[0].text).toMatch(/UNAVAILABLE.*cannot reach the gateway/);
      expect(JSON.parse((result.content as TextContent[])[1].text)).toMatchObject({ error: { code: 'UNAVAILABLE', retryable: true } });
    } finally {
      await client.close();
    }
  });
});

describe('askdock mcp for an identity denied ask_user', { timeout: 90_000 }, () => {
  it('[RU1][A5] a call anyway is refused as FORBIDDEN with details.reason "denied", and nothing is asked', async () => {
    const t = await startTestGateway({
      config: {
        identities: [
          { id: 'operator', token: 'mcp-deny-operator-token-0123456789', role: 'operator', scopes: ['operator.admin'] },
          { id: 'agent', token: 'mcp-deny-agent-token-0123456789ab', role: 'agent', scopes: ['agent.run'], deny: ['ask_user'] },
        ],
      },
    });
    const mcp = await startMcp(t);
    try {
      const result = await mcp.client.callTool({ name: 'ask_user', arguments: DEPLOY });
      expect(result.isError).toBe(true);
      const [, json] = result.content as TextContent[];
      expect(JSON.parse(json.text).error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'denied' } });
      const { questions } = await t.operator.request('question.list', {});
      expect(questions).toHaveLength(0);
    } finally {
      await mcp.client.close();
      await t.close();
    }
  });
});

describe('askdock mcp behind a proxy', { timeout: 90_000 }, () => {
  it('[U11] with the gateway\'s publicUrl, the question\'s page is logged on that address, not the bind address', async () => {
    const t = await startTestGateway({ config: { ...testConfig, publicUrl: 'https://askdock.team.example' } });
    const mcp = await startMcp(t);
    try {
      const requested = nextEvent(t.operator, 'question.requested');
      const call = mcp.client.callTool({ name: 'ask_user', arguments: DEPLOY });
      const { question } = await requested;
      const line = `answer it at https://askdock.team.example/q/${question.id}`;
      await expect.poll(() => mcp.stderr.join(''), { timeout: 10_000 }).toContain(line);
      expect(mcp.stderr.join('')).not.toContain('answer it at http://127.0.0.1');
      await t.operator.request('question.resolve', { id: question.id, answers: { deploy_target: ['Production'] } });
      expect((await call).structuredContent).toMatchObject({ status: 'answered' });
    } finally {
      await mcp.client.close();
      await t.close();
    }
  });
});
