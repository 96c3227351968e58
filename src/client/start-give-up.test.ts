import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from '../gateway/gateway.ts';
import { silentLogger } from '../gateway/infra/logger.ts';
import { testConfig, tokenOf } from '../testing/gateway-harness.ts';
import { freePort } from '../testing/restartable-gateway.ts';
import type { GatewayClient } from './client.ts';
import { createNodeClient } from './node.ts';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const BACKOFF = { initialMs: 20, maxMs: 50 };

function clientFor(url: string | string[]): GatewayClient {
  const c = createNodeClient({ url, token: tokenOf('admin'), client: { name: 'give-up', mode: 'cli' }, backoff: BACKOFF });
  cleanup.push(() => c.close());
  return c;
}

async function gatewayOn(port: number) {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-give-up-'));
  const gw = await startGateway({ host: '127.0.0.1', port, dbPath: join(dir, 'askdock.db'), config: testConfig, log: silentLogger() });
  cleanup.push(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return gw;
}

/** Accepts TCP connections and never answers a byte: no upgrade, no connect.challenge. */
async function silentListener(): Promise<number> {
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((s) => sockets.add(s));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  cleanup.push(
    () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  );
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

describe('GatewayClient.start when no gateway answers', () => {
  it('[P7] with attempts: 1 it gives up with UNAVAILABLE naming the gateway and the refusal, and stops trying', async () => {
    const port = await freePort();
    const url = `ws://127.0.0.1:${port}/ws`;
    const c = clientFor(url);
    const err = await c.start({ attempts: 1 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'UNAVAILABLE' });
    expect(String((err as Error).message)).toMatch(new RegExp(`^cannot reach the gateway at ${url}: .*ECONNREFUSED`));
    expect(c.state.status).toBe('closed');

    // A gateway that comes up later is not reached: the client gave up for good.
    await gatewayOn(port);
    // No tuned wait: a retry the client still held would be a timer of at most BACKOFF.maxMs, set before this one, so it
    // fires first and its attempt leaves 'closed' at once; a connection begun then is answered before the probe's below.
    await new Promise((r) => setTimeout(r, BACKOFF.maxMs + 1));
    expect(c.state.status).toBe('closed');
    const probe = clientFor(url);
    expect((await probe.start()).auth.identity).toBe('admin');
    expect(c.state.status).toBe('closed');
    expect(c.hello).toBeNull();
  });

  it('[P7][D4] with several gateways it gives up only once each of them failed that often, naming them all', async () => {
    const [a, b] = [await freePort(), await freePort()];
    const urls = [`ws://127.0.0.1:${a}/ws`, `ws://127.0.0.1:${b}/ws`];
    const c = clientFor(urls);
    const attempts: number[] = [];
    c.onState((s) => s.status === 'reconnecting' && s.lastError && attempts.push(s.attempt));
    await expect(c.start({ attempts: 2 })).rejects.toThrow(`cannot reach the gateway at ${urls.join(', ')}`);
    expect(Math.max(...attempts)).toBe(4);
  });

  it('[P4][P7] with giveUpAfterMs it gives up on a listener that never says hello', async () => {
    const port = await silentListener();
    const c = clientFor(`ws://127.0.0.1:${port}/ws`);
    await expect(c.start({ giveUpAfterMs: 300 })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: `no answer from the gateway at ws://127.0.0.1:${port}/ws within 300 ms`,
    });
    expect(c.state.status).toBe('closed');
  });

  it('[P7] without either it keeps trying until a gateway listens', async () => {
    const port = await freePort();
    const c = clientFor(`ws://127.0.0.1:${port}/ws`);
    const started = c.start();
    await expect.poll(() => c.state.attempt).toBeGreaterThanOrEqual(3);
    await gatewayOn(port);
    expect((await started).auth.identity).toBe('admin');
  });
});
