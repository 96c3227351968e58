import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { testConfig } from '../testing/gateway-harness.ts';
import type { EventPayload } from '../protocol/index.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(HERE, '../../bin/askdock.js');
const SERVER = [process.execPath, '--import', pathToFileURL(resolve(HERE, '../../node_modules/tsx/dist/loader.mjs')).href, resolve(HERE, '../testing/elicit-server.ts')];

const APPROVALS = {
  rules: [
    { id: 'small-counts', rule: 'mcp__shop-tools__count', args: { n: { $lte: 5 } }, decision: 'allow' },
    { id: 'no-delete', rule: 'mcp__shop-tools__delete_all', decision: 'deny', reason: 'nothing is deleted from here' },
    { id: 'seen', rule: 'mcp__shop-tools__seen', decision: 'allow' },
  ],
  unmatched: 'ask',
};

type TextContent = { type: 'text'; text: string };
const textOf = (r: { [key: string]: unknown }) => (r.content as TextContent[])[0].text;

describe('askdock mcp-proxy --approve: every tools/call decided by the approval policy (G4)', { timeout: 180_000 }, () => {
  let t: TestGateway;
  let client: Client;
  const asked: EventPayload<'question.requested'>['question'][] = [];
  beforeAll(async () => {
    t = await startTestGateway({ config: { ...testConfig, approvals: APPROVALS } as never });
    t.operator.on('question.requested', (p) => asked.push(p.question));
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp-proxy', '--approve', '--url', t.url, '--token', t.agentToken, '--', ...SERVER], cwd: t.dir, stderr: 'pipe' });
    client = new Client({ name: 'approve-test', version: '1.0.0' });
    await client.connect(transport);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('[G4] an allowed call reaches the server with nobody asked; a denied one is an error result naming the rule and its reason, and the server never sees it', async () => {
    const counted = await client.callTool({ name: 'count', arguments: { n: 3 } });
    expect(textOf(counted)).toBe('counted to 3');
    const denied = await client.callTool({ name: 'delete_all', arguments: { target: 'orders' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('mcp__shop-tools__delete_all was denied by rule no-delete');
    expect(textOf(denied)).toContain('nothing is deleted from here');
    expect(JSON.parse(textOf(await client.callTool({ name: 'seen', arguments: {} })))).toEqual(['count:3']);
    expect(asked).toEqual([]);
  });

  it('[G4] a call no rule allows asks a person; Deny answers an error result, Allow forwards it', async () => {
    const first = client.callTool({ name: 'count', arguments: { n: 50 } });
    await eventually(() => (asked.length >= 1 ? true : undefined), 60_000);
    expect(asked[0].questions[0].kind).toBe('approval');
    await t.operator.request('question.resolve', { id: asked[0].id, answers: { approval: ['Deny'] } });
    const denied = await first;
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('mcp__shop-tools__count was denied by');
    const second = client.callTool({ name: 'count', arguments: { n: 40 } });
    await eventually(() => (asked.length >= 2 ? true : undefined), 60_000);
    await t.operator.request('question.resolve', { id: asked[1].id, answers: { approval: ['Allow'] } });
    expect(textOf(await second)).toBe('counted to 40');
    expect(JSON.parse(textOf(await client.callTool({ name: 'seen', arguments: {} })))).toEqual(['count:3', 'count:40']);
  });
});

describe('askdock mcp-proxy --approve without askdock set up (G10)', { timeout: 120_000 }, () => {
  it('[G4][G10] with no token every tools/call is refused with an error result saying why; tools/list still passes', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'askdock-approve-unset-'));
    let stderr = '';
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp-proxy', '--approve', '--', ...SERVER], cwd, env: getDefaultEnvironment(), stderr: 'pipe' });
    transport.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: 'approve-unset', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect((await client.listTools()).tools.map((x) => x.name)).toContain('count');
      const refused = await client.callTool({ name: 'count', arguments: { n: 1 } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('askdock could not decide whether mcp__shop-tools__count may run');
      expect(stderr).toContain('--approve: every tools/call is refused until askdock is set up');
    } finally {
      await client.close();
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
