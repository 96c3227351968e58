import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Agent } from './sdk.ts';
import { askdockCanUseTool } from './can-use-tool.ts';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { item } from '../testing/gateway-harness.ts';
import { routingConfig } from '../testing/routing-gateway.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(HERE, '../../bin/askdock.js');
const SERVER = [process.execPath, '--import', pathToFileURL(resolve(HERE, '../../node_modules/tsx/dist/loader.mjs')).href, resolve(HERE, '../testing/elicit-server.ts')];

/** Each source has a route of its own, whose one step notifies one person: who was notified says which route matched. */
const config = {
  ...routingConfig,
  routing: {
    escalations: {
      'from-sdk': { steps: [{ notify: ['identity:ana'], wait: '5m' }] },
      'from-proxy': { steps: [{ notify: ['identity:bo'], wait: '5m' }] },
    },
    routes: [
      { match: { source: 'sdk' }, escalation: 'from-sdk' },
      { match: { source: 'mcp-proxy:github' }, escalation: 'from-proxy' },
    ],
  },
};

describe('what asks, as routes match it (E1)', { timeout: 180_000 }, () => {
  let t: TestGateway;
  let agent: Agent;
  beforeAll(async () => {
    t = await startTestGateway({ config });
    agent = await connect({ url: t.url, token: t.agentToken });
  }, 60_000);
  afterAll(async () => {
    agent?.close();
    await t?.close();
  });

  it('[E1] the Node SDK\'s askUser and askUserAsync are routed by a route matching source "sdk"', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const answer = agent.askUser({ questions: [item()] });
    const { question } = await requested;
    expect(question.route).toMatchObject({ escalation: 'from-sdk', notified: ['ana'] });
    await t.operator.request('question.resolve', { id: question.id, answers: { env: ['Staging'] } });
    expect(await answer).toMatchObject({ status: 'answered' });
    const { id } = await agent.askUserAsync({ questions: [item()] });
    expect((await t.operator.request('question.get', { id })).question.route).toMatchObject({ escalation: 'from-sdk', notified: ['ana'] });
  });

  it('[E1] an approval asked through askdockCanUseTool is routed by a route matching source "sdk"', async () => {
    const canUseTool = askdockCanUseTool({ url: t.url, token: t.agentToken, cwd: t.dir });
    try {
      const requested = nextEvent(t.operator, 'question.requested');
      const result = canUseTool('Bash', { command: 'ls' }, { signal: new AbortController().signal, toolUseID: 'toolu_01', requestId: 'req_1' });
      const { question } = await requested;
      expect(question.route).toMatchObject({ escalation: 'from-sdk', notified: ['ana'] });
      await t.operator.request('question.resolve', { id: question.id, answers: { approval: ['Deny'] } });
      expect(await result).toMatchObject({ behavior: 'deny' });
    } finally {
      canUseTool.close();
    }
  });

  it('[E1] `askdock mcp-proxy --approve --name github` asks its approvals as source "mcp-proxy:github"', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp-proxy', '--approve', '--name', 'github', '--url', t.url, '--token', t.agentToken, '--', ...SERVER], cwd: t.dir, stderr: 'pipe' });
    const client = new Client({ name: 'route-source-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const requested = nextEvent(t.operator, 'question.requested');
      const called = client.callTool({ name: 'count', arguments: { n: 2 } });
      const { question } = await requested;
      expect(question.questions[0].kind).toBe('approval');
      expect(question.route).toMatchObject({ escalation: 'from-proxy', notified: ['bo'] });
      await t.operator.request('question.resolve', { id: question.id, answers: { approval: ['Allow'] } });
      expect((await called).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
