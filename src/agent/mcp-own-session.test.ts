import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeClient } from '../client/node.ts';
import type { GatewayClient } from '../client/client.ts';
import { startGateway, type RunningGateway } from '../gateway/gateway.ts';
import { silentLogger } from '../gateway/infra/logger.ts';
import { nextEvent } from '../testing/agent-harness.ts';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/askdock.js');
const ASK = {
  questions: [{ id: 'env', header: 'Env', question: 'Where to?', options: [{ label: 'Staging' }, { label: 'Production' }] }],
};

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

async function gatewayOn(dbPath: string): Promise<{ gw: RunningGateway; operator: GatewayClient; agentToken: string }> {
  const gw = await startGateway({ port: 0, dbPath, log: silentLogger(), uiDir: join(dirname(dbPath), 'no-ui') });
  const ids = gw.identities.identities;
  const operator = createNodeClient({ url: gw.wsUrl, token: ids.find((i) => i.role === 'operator')!.token!, client: { name: 'test', mode: 'ui' } });
  await operator.start();
  const stop = async () => {
    operator.close();
    await gw.close();
  };
  cleanup.push(stop);
  return { gw, operator, agentToken: ids.find((i) => i.role === 'agent')!.token! };
}

/** Asks once through `askdock mcp` started by the official MCP client as `clientName` in `cwd`, answers it, returns its session. */
async function askThroughMcp(g: Awaited<ReturnType<typeof gatewayOn>>, clientName: string, cwd: string): Promise<string> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--url', g.gw.wsUrl, '--token', g.agentToken], cwd, stderr: 'ignore' });
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport);
  try {
    const requested = nextEvent(g.operator, 'question.requested', () => true, 30_000);
    const call = client.callTool({ name: 'ask_user', arguments: ASK });
    const { question } = await requested;
    await g.operator.request('question.resolve', { id: question.id, answers: { env: ['Staging'] } });
    expect((await call).structuredContent).toEqual({ status: 'answered', answers: { answers: { env: ['Staging'] } }, receipt: expect.any(String) });
    expect(question.sessionKey).toBeDefined();
    return question.sessionKey!;
  } finally {
    await client.close();
  }
}

/** Asks for a secret through `askdock mcp` as `clientName` in `cwd`, skips it, returns the request's session. */
async function secretThroughMcp(g: Awaited<ReturnType<typeof gatewayOn>>, clientName: string, cwd: string): Promise<string | undefined> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--url', g.gw.wsUrl, '--token', g.agentToken], cwd, stderr: 'ignore' });
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport);
  try {
    const requested = nextEvent(g.operator, 'secret.requested', () => true, 30_000);
    const call = client.callTool({ name: 'request_secret', arguments: { name: 'DEPLOY_KEY', description: 'To deploy' } });
    const { request } = await requested;
    await g.operator.request('secret.provide', { id: request.id, skip: true });
    expect((await call).structuredContent).toEqual({ status: 'skipped', name: 'DEPLOY_KEY' });
    return request.sessionKey;
  } finally {
    await client.close();
  }
}

describe('askdock mcp asks in a session of its own', () => {
  it('[T6] one session per MCP client and folder, titled "<client name> · <folder>", the same one after a restart', { timeout: 120_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'askdock-t6-'));
    cleanup.push(async () => rmSync(root, { recursive: true, force: true }));
    const project = join(root, 'my-app');
    mkdirSync(project);
    const dbPath = join(root, 'db', 'askdock.db');

    let g = await gatewayOn(dbPath);
    const first = await askThroughMcp(g, 'Claude Code', project);
    const { sessions } = await g.operator.request('sessions.list', {});
    expect(sessions.find((s) => s.key === first)).toMatchObject({ title: 'Claude Code · my-app', agentId: 'agent' });
    // The summary stays in that session: the answered record is listed there.
    const { questions } = await g.operator.request('question.list', { sessionKey: first });
    expect(questions.map((q) => q.status)).toEqual(['answered']);
    await cleanup.pop()!();

    g = await gatewayOn(dbPath);
    expect(await askThroughMcp(g, 'Claude Code', project)).toBe(first);
    // A secret asked through the same client and folder docks in that session too (W4 beside T6).
    expect(await secretThroughMcp(g, 'Claude Code', project)).toBe(first);
    const other = await askThroughMcp(g, 'Codex', project);
    expect(other).not.toBe(first);
    const titles = (await g.operator.request('sessions.list', {})).sessions.map((s) => s.title).sort();
    expect(titles).toEqual(['Claude Code · my-app', 'Codex · my-app']);
  });
});
