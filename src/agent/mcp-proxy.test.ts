import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { eventually, fastClock, nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import type { EventPayload } from '../protocol/index.ts';
import { countingRelay } from '../testing/counting-relay.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(HERE, '../../bin/askdock.js');
const SERVER = [process.execPath, '--import', pathToFileURL(resolve(HERE, '../../node_modules/tsx/dist/loader.mjs')).href, resolve(HERE, '../testing/elicit-server.ts')];

type TextContent = { type: 'text'; text: string };
type Record_ = EventPayload<'question.requested'>['question'];

async function startClient(args: string[], cwd: string) {
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd, stderr: 'pipe' });
  const client = new Client({ name: 'proxy-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const proxyArgs = (t: TestGateway) => [BIN, 'mcp-proxy', '--url', t.url, '--token', t.agentToken, '--', ...SERVER];
const resultOf = (r: { [key: string]: unknown }) => JSON.parse((r.content as TextContent[])[0].text) as unknown;

describe('askdock mcp-proxy, between the official MCP client and a real MCP server', { timeout: 180_000 }, () => {
  let t: TestGateway;
  let proxied: Client;
  beforeAll(async () => {
    t = await startTestGateway();
    proxied = await startClient(proxyArgs(t), t.dir);
  }, 120_000);
  afterAll(async () => {
    await proxied?.close();
    await t?.close();
  });

  /** Every question asked, in order: a re-ask may arrive before the answer to the last one is confirmed. */
  const asked: Record_[] = [];
  let seen = 0;
  beforeAll(() => {
    t.operator.on('question.requested', (p) => asked.push(p.question));
  });

  /** Waits for the next question, answers it as an operator. */
  async function answerNext(answer: (q: Record_) => Record<string, unknown>): Promise<Record_> {
    await eventually(() => (asked.length > seen ? true : undefined), 60_000);
    const question = asked[seen++];
    await t.operator.request('question.resolve', { id: question.id, ...answer(question) } as never);
    return question;
  }

  it('[X5] tools/list and a tool call with progress pass through unchanged', async () => {
    const direct = new Client({ name: 'direct', version: '1.0.0' });
    await direct.connect(new StdioClientTransport({ command: SERVER[0], args: SERVER.slice(1), stderr: 'pipe' }));
    try {
      expect(await proxied.listTools()).toEqual(await direct.listTools());
      expect(proxied.getServerVersion()).toEqual({ name: 'shop-tools', version: '1.0.0' });
    } finally {
      await direct.close();
    }
    const progress: unknown[] = [];
    const result = await proxied.callTool({ name: 'count', arguments: { n: 3 } }, undefined, { onprogress: (p) => progress.push(p) });
    expect((result.content as TextContent[])[0].text).toBe('counted to 3');
    expect(progress).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })));
  });

  /** Answers `question` as an operator and expects the gateway to refuse it; the problems it names. */
  async function refused(question: Record_, answers: Record<string, string[]>): Promise<unknown> {
    const err = await t.operator.request('question.resolve', { id: question.id, answers }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'QUESTION_INVALID_ANSWER' });
    return (err as { details?: unknown }).details;
  }

  it('[X5][Q12] a form elicitation: each field asked as its kind, 3 a prompt, typed values checked by the gateway and sent back typed', async () => {
    const call = proxied.callTool({ name: 'deploy', arguments: {} });
    // Prompt 1: region (a required list of 3: a choice, its default first), size (6 values: an input with enum), confirm (a required yes/no).
    await eventually(() => (asked.length > seen ? true : undefined), 60_000);
    const first = asked[seen];
    expect(first.questions.map((q) => [q.id, q.kind ?? 'choice'])).toEqual([['region', 'choice'], ['size', 'input'], ['confirm', 'confirm']]);
    expect(first.questions[0]).toMatchObject({ header: 'Region', question: 'Which region should it run in?' });
    expect(first.questions[0].options.map((o) => o.label)).toEqual(['us-east (Recommended)', 'eu-west', 'ap-south']);
    expect(first.questions[1].input).toEqual({ type: 'string', enum: ['nano', 'micro', 'small', 'medium', 'large', 'xlarge'] });
    const { sessions } = await t.operator.request('sessions.list', {});
    expect(sessions.find((s) => s.key === first.sessionKey)?.title).toMatch(/^shop-tools · /);
    // "huge" is no size: the gateway refuses it naming the rule, and the question stays unanswered.
    expect(JSON.stringify(await refused(first, { region: ['eu-west'], size: ['huge'], confirm: ['Yes'] }))).toContain('must be one of nano, micro, small, medium, large, xlarge (enum)');
    expect((await t.operator.request('question.get', { id: first.id })).question.status).toBe('pending');
    await answerNext(() => ({ answers: { region: ['eu-west'], size: ['XLarge'], confirm: ['Yes'] } }));
    // Prompt 2: replicas (integer 1..5, default 2), email (format email, required), note (optional, at most 40 characters).
    await eventually(() => (asked.length > seen ? true : undefined), 60_000);
    const second = asked[seen];
    expect(second.questions.map((q) => [q.id, q.kind, q.input])).toEqual([
      ['replicas', 'input', { type: 'integer', minimum: 1, maximum: 5, default: 2 }],
      ['email', 'input', { type: 'email' }],
      ['note', 'input', { type: 'string', maxLength: 40, required: false }],
    ]);
    expect(second.questions.every((q) => q.options.length === 0)).toBe(true);
    const problems = JSON.stringify(await refused(second, { replicas: ['9'], email: ['bob'] }));
    expect(problems).toContain('must be at most 5 (maximum)');
    expect(problems).toContain('must be an email address (email)');
    // The optional note is left out; nothing is asked again.
    await answerNext(() => ({ answers: { replicas: ['2'], email: ['ops@shop.example'] } }));
    // Typed as the schema says: a number as a number, a boolean as a boolean, the enum's own spelling.
    expect(resultOf(await call)).toEqual({ action: 'accept', content: { region: 'eu-west', size: 'xlarge', confirm: true, replicas: 2, email: 'ops@shop.example' } });
    expect(asked.length).toBe(seen);
  });

  it('[X5] several elicitations at once: one queue, each asked once, in the order they came, each answer to its own', async () => {
    // A proxy of its own, through a relay that counts what it asks of the gateway.
    const relay = await countingRelay(t.url);
    const client = await startClient([BIN, 'mcp-proxy', '--url', relay.url, '--token', t.agentToken, '--', ...SERVER], t.dir);
    onTestFinished(async () => {
      await client.close();
      await relay.close();
    });
    const before = asked.length;
    const call = client.callTool({ name: 'survey', arguments: { n: 4 } });
    const headers: string[] = [];
    for (let i = 0; i < 4; i++) {
      const q = await answerNext((q) => ({ answers: { answer: [`reply to ${q.questions[0].header}`] } }));
      headers.push(q.questions[0].header);
    }
    expect(headers).toEqual(['Q1', 'Q2', 'Q3', 'Q4']);
    expect(resultOf(await call)).toEqual([1, 2, 3, 4].map((i) => ({ action: 'accept', content: { answer: `reply to Q${i}` } })));
    // Nothing was asked twice: four questions in all, one per elicitation.
    expect(asked.slice(before).map((q) => q.questions[0].header)).toEqual(['Q1', 'Q2', 'Q3', 'Q4']);
    expect(relay.sent('question.request')).toBe(4);
  });

  it('[X5][Q12] form mode: no field offers Decline or Cancel; Skip declines the whole request at once', async () => {
    const declined = proxied.callTool({ name: 'deploy', arguments: {} });
    const q = await answerNext(() => ({ skip: true }));
    expect(q.questions.flatMap((x) => x.options.map((o) => o.label))).not.toEqual(expect.arrayContaining(['Decline']));
    expect(q.questions.flatMap((x) => x.options.map((o) => o.label))).not.toEqual(expect.arrayContaining(['Cancel']));
    // Declined at the first prompt: the other fields are never asked.
    expect(resultOf(await declined)).toEqual({ action: 'decline' });
  });

  it('[X5] Skip declines', async () => {
    const call = proxied.callTool({ name: 'deploy', arguments: {} });
    await answerNext(() => ({ skip: true }));
    expect(resultOf(await call)).toEqual({ action: 'decline' });
  });

  it('[X5] url mode: a question with the link and Done / Decline; Done accepts', async () => {
    const call = proxied.callTool({ name: 'login', arguments: {} });
    const q = await answerNext(() => ({ answers: { link: ['Done'] } }));
    expect(q.questions[0]).toMatchObject({ url: 'https://auth.example.com/login?flow=42', options: [{ label: 'Done' }, { label: 'Decline' }] });
    expect(q.questions[0].question).toContain('shop-tools');
    expect(resultOf(await call)).toEqual({ action: 'accept' });
  });

  it('[X5][Q12] url mode asks a link question, and an answer of done in any case accepts', async () => {
    const call = proxied.callTool({ name: 'login', arguments: {} });
    const q = await answerNext(() => ({ answers: { link: ['done'] } }));
    expect(q.questions[0]).toMatchObject({ kind: 'link', url: 'https://auth.example.com/login?flow=42' });
    expect(resultOf(await call)).toEqual({ action: 'accept' });
  });

  it('[X5][Q1] url mode: the server\'s elicitation/complete resolves the question as done (answered Done by mcp-proxy)', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const call = proxied.callTool({ name: 'login', arguments: {} });
    const { question } = await requested;
    seen++;
    const resolved = nextEvent(t.operator, 'question.resolved', (p) => p.id === question.id);
    await proxied.callTool({ name: 'finish_login', arguments: {} });
    // Every surface shows the step done, answered by the proxy, not withdrawn.
    expect(await resolved).toMatchObject({ status: 'answered', answers: { link: ['Done'] }, resolvedBy: { surface: 'mcp-proxy' } });
    expect(resultOf(await call)).toEqual({ action: 'accept' });
  });

  it('[X5][T5][Q1] the client cancelling its call cancels the question (surface mcp-proxy)', async () => {
    const controller = new AbortController();
    const requested = nextEvent(t.operator, 'question.requested');
    const call = proxied.callTool({ name: 'deploy', arguments: {} }, undefined, { signal: controller.signal });
    call.catch(() => undefined);
    const { question } = await requested;
    seen++;
    const resolved = nextEvent(t.operator, 'question.resolved', (p) => p.id === question.id);
    controller.abort('the user pressed Esc');
    await expect(call).rejects.toThrow();
    // Q1: the record says the proxy withdrew it.
    expect(await resolved).toMatchObject({ status: 'cancelled', resolvedBy: { surface: 'mcp-proxy' } });
  });
});

describe('askdock mcp-proxy lifecycle', { timeout: 180_000 }, () => {
  it('[X5] an elicitation nobody answers in time returns cancel', async () => {
    // 900 s at 1000 times speed.
    const t = await startTestGateway({ clock: fastClock(1000) });
    const client = await startClient(proxyArgs(t), t.dir);
    try {
      const call = client.callTool({ name: 'deploy', arguments: {} });
      expect(resultOf(await call)).toEqual({ action: 'cancel' });
    } finally {
      await client.close();
      await t.close();
    }
  });

  it('[X5] a 2026-07-28 input_required result is answered through askdock and retried for the client', async () => {
    const t = await startTestGateway();
    const mrtr = [SERVER[0], SERVER[1], SERVER[2], resolve(HERE, '../testing/mrtr-server.ts')];
    const client = await startClient([BIN, 'mcp-proxy', '--url', t.url, '--token', t.agentToken, '--', ...mrtr], t.dir);
    try {
      const requested = nextEvent(t.operator, 'question.requested');
      const call = client.callTool({ name: 'book', arguments: {} });
      const { question } = await requested;
      expect(question.questions[0]).toMatchObject({ id: 'date', header: 'Date', question: 'Which day?' });
      await t.operator.request('question.resolve', { id: question.id, answers: { date: ['2026-12-24'] } });
      const result = await call;
      const echoed = JSON.parse((result.content as TextContent[])[0].text) as { id: unknown; inputResponses: unknown; requestState: unknown };
      expect(echoed.inputResponses).toEqual({ when: { action: 'accept', content: { date: '2026-12-24' } } });
      expect(echoed.requestState).toBe('st-1');
      // The retry is a new request of its own; the client got the answer under its own id.
      expect(echoed.id).toMatch(/^askdock-retry-/);
      const { sessions } = await t.operator.request('sessions.list', {});
      expect(sessions.find((s) => s.key === question.sessionKey)?.title).toMatch(/^tables · /);
    } finally {
      await client.close();
      await t.close();
    }
  });

  it('[X5][X6] the client closing stdio withdraws the question being asked', async () => {
    const t = await startTestGateway();
    try {
      const client = await startClient(proxyArgs(t), t.dir);
      const requested = nextEvent(t.operator, 'question.requested');
      client.callTool({ name: 'deploy', arguments: {} }).catch(() => undefined);
      const { question } = await requested;
      const resolved = nextEvent(t.operator, 'question.resolved', (p) => p.id === question.id);
      await client.close();
      expect(await resolved).toMatchObject({ status: 'cancelled' });
    } finally {
      await t.close();
    }
  });

  it('[X5] the wrapped server exiting ends the proxy with its exit code', async () => {
    const t = await startTestGateway();
    try {
      const child = spawn(process.execPath, proxyArgs(t), { cwd: t.dir, stdio: ['pipe', 'pipe', 'inherit'] });
      const code = new Promise<number | null>((res) => child.on('exit', (c) => res(c)));
      const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'quit', arguments: {} } });
      expect(await code).toBe(7);
    } finally {
      await t.close();
    }
  });
});
