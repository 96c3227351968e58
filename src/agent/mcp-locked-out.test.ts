/** `askdock mcp` while the gateway has locked its address out (S4): the tool result says so, and when to come back. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createNodeClient } from '../client/node.ts';
import { startGateway } from '../gateway/gateway.ts';
import { silentLogger } from '../gateway/infra/logger.ts';
import { testConfig, tokenOf } from '../testing/gateway-harness.ts';
import { serveMcp } from './mcp-server.ts';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/**
 * A TCP relay to the gateway (at `to.port`, set once it listens) whose connections a test can cut; `refusedAfterCut`
 * settles once one made after the cut has ended.
 */
async function cuttableRelay(to: { port: number }) {
  const sockets = new Set<Socket>();
  let cut = false;
  let ended = () => {};
  const refusedAfterCut = new Promise<void>((resolve) => (ended = resolve));
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: to.port });
    const late = cut;
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
        if (late) ended();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  cleanup.push(() => new Promise<void>((ok) => server.close(() => ok())));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    url: `ws://${host}/ws`,
    cutAll() {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    refusedAfterCut,
  };
}

/** The MCP client's side of serveMcp's stdin and stdout, one JSON-RPC message a line. */
function linesTransport(toServer: PassThrough, fromServer: PassThrough): Transport {
  const transport: Transport = {
    async start() {
      createInterface({ input: fromServer }).on('line', (line) => transport.onmessage?.(JSON.parse(line) as JSONRPCMessage));
    },
    async send(message) {
      toServer.write(`${JSON.stringify(message)}\n`);
    },
    async close() {
      toServer.end();
      transport.onclose?.();
    },
  };
  return transport;
}

/** serveMcp at `url` over in-process stdio, an MCP client at its other end; resolves once serveMcp logs a line `until` matches. */
async function mcpLogging(url: string, until: RegExp): Promise<Client> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let seen = () => {};
  const logged = new Promise<void>((resolve) => (seen = resolve));
  const log = (line: string) => {
    if (until.test(line)) seen();
  };
  const served = serveMcp({ url, token: tokenOf('agent'), stdin, stdout, log, connectWaitMs: 1_000 });
  const client = new Client({ name: 'locked-out', version: '1.0.0' });
  await client.connect(linesTransport(stdin, stdout));
  cleanup.push(async () => {
    await client.close();
    await served;
  });
  await logged;
  return client;
}

/** Two bad tokens from this address lock it out (S4). */
async function lockOut(wsUrl: string): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const wrong = createNodeClient({ url: wsUrl, token: 'a-wrong-token-0123456789xyz', client: { name: 'wrong', mode: 'ui' } });
    await expect(wrong.start()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    wrong.close();
  }
}

it('[S4][P7][errors] an ask_user call while the gateway locks this address out answers RATE_LIMITED with retryAfterMs, not "is askdock start running?"', async () => {
  const to = { port: 0 };
  const relay = await cuttableRelay(to);
  // S3: the gateway answers the relay's Host as its own.
  const dir = mkdtempSync(join(tmpdir(), 'askdock-mcp-locked-'));
  const gw = await startGateway({ host: '127.0.0.1', port: 0, dbPath: join(dir, 'askdock.db'), config: testConfig, log: silentLogger(), loginLimit: { maxFailures: 2, windowMs: 60_000 }, allowedHosts: [relay.host] });
  cleanup.push(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });
  to.port = Number(new URL(gw.wsUrl).port);
  const client = await mcpLogging(relay.url, /^connected/);
  // Locked out now: the proxy's connection drops and its reconnect is refused.
  await lockOut(gw.wsUrl);
  relay.cutAll();
  await relay.refusedAfterCut;
  const result = await client.callTool({ name: 'ask_user', arguments: { questions: [{ id: 'env', header: 'Env', question: 'Where?', options: [{ label: 'Staging' }, { label: 'Production' }] }] } });
  expect(result.isError).toBe(true);
  const [text, json] = result.content as { type: 'text'; text: string }[];
  expect(text.text).toMatch(/RATE_LIMITED/);
  expect(text.text).not.toMatch(/askdock start/);
  expect(JSON.parse(json.text)).toMatchObject({ error: { code: 'RATE_LIMITED', retryable: true, retryAfterMs: expect.any(Number) } });
});

it('[S4][P7][errors] when the first connect is refused RATE_LIMITED, a call during the lock-out says when to come back and one after it is asked', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-mcp-locked-first-'));
  const gw = await startGateway({ host: '127.0.0.1', port: 0, dbPath: join(dir, 'askdock.db'), config: testConfig, log: silentLogger(), loginLimit: { maxFailures: 2, windowMs: 1_500 } });
  cleanup.push(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });
  // Connected before the lock-out, so it stays connected through it and answers the question afterwards.
  const operator = createNodeClient({ url: gw.wsUrl, token: tokenOf('admin'), client: { name: 'operator', mode: 'ui' } });
  await operator.start();
  cleanup.push(() => operator.close());
  await lockOut(gw.wsUrl);
  // Its first connect is refused.
  const client = await mcpLogging(gw.wsUrl, /too many failed connects/);
  const args = { questions: [{ id: 'env', header: 'Env', question: 'Where?', options: [{ label: 'Staging' }, { label: 'Production' }] }] };
  const during = await client.callTool({ name: 'ask_user', arguments: args });
  expect(during.isError).toBe(true);
  const error = (JSON.parse((during.content as { type: 'text'; text: string }[])[1].text) as { error: { code: string; retryAfterMs: number } }).error;
  expect(error).toMatchObject({ code: 'RATE_LIMITED', retryable: true, retryAfterMs: expect.any(Number) });
  // Come back when the gateway said to.
  await new Promise((r) => setTimeout(r, error.retryAfterMs + 50));
  const requested = new Promise<{ id: string }>((resolve) => {
    const off = operator.on('question.requested', ({ question }) => {
      off();
      resolve(question);
    });
  });
  const after = client.callTool({ name: 'ask_user', arguments: args });
  // The call must reach the operator, not come back refused as it was during the lock-out.
  const question = await Promise.race([
    requested,
    after.then((r) => {
      throw new Error(`not asked: ${JSON.stringify(r.content)}`);
    }),
  ]);
  await operator.request('question.resolve', { id: question.id, answers: { env: ['Staging'] } });
  const result = await after;
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ status: 'answered', answers: { answers: { env: ['Staging'] } } });
});
