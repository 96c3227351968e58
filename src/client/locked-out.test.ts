import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../gateway/gateway.ts';
import { silentLogger } from '../gateway/infra/logger.ts';
import { testConfig, tokenOf } from '../testing/gateway-harness.ts';
import type { ConnectionState, GatewayClient } from './client.ts';
import { createNodeClient } from './node.ts';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** A gateway that locks an address out after two bad tokens, for `windowMs`. */
async function lockingGateway(windowMs: number): Promise<RunningGateway> {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-locked-'));
  const gw = await startGateway({ host: '127.0.0.1', port: 0, dbPath: join(dir, 'askdock.db'), config: testConfig, log: silentLogger(), loginLimit: { maxFailures: 2, windowMs } });
  cleanup.push(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return gw;
}

function clientOf(gw: RunningGateway, token: string): GatewayClient {
  const c = createNodeClient({ url: gw.wsUrl, token, client: { name: 'locked-out', mode: 'ui' }, backoff: { initialMs: 20, maxMs: 50 } });
  cleanup.push(() => c.close());
  return c;
}

/** Two refused tokens from this address: the gateway now refuses every connect from it (S4), good tokens too. */
async function lockOut(gw: RunningGateway): Promise<void> {
  for (let i = 0; i < 2; i++) await expect(clientOf(gw, 'a-wrong-token-0123456789xyz').start()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
}

describe('a client whose address the gateway locked out (S4)', () => {
  it('[P7][errors] keeps RATE_LIMITED with its retryAfterMs, and connects once the lock-out has passed instead of stopping for good', async () => {
    const gw = await lockingGateway(1_500);
    await lockOut(gw);
    const c = clientOf(gw, tokenOf('admin'));
    const states: ConnectionState[] = [];
    c.onState((s) => states.push(s));
    const hello = await c.start();
    expect(hello.auth.identity).toBe('admin');
    const refused = states.find((s) => s.lastError?.code === 'RATE_LIMITED');
    expect(refused).toMatchObject({ status: 'reconnecting', lastError: { retryAfterMs: expect.any(Number) } });
    expect(refused!.lastError!.retryAfterMs).toBeGreaterThan(0);
    expect(states.some((s) => s.status === 'closed')).toBe(false);
    // Waited for the lock-out rather than knocking every backoff step: it was refused once.
    expect(states.filter((s) => s.nextAttemptAtMs !== undefined && s.lastError?.code === 'RATE_LIMITED')).toHaveLength(1);
  });

  it('[P7][errors] a client that gives up after one attempt rejects with RATE_LIMITED and says when to come back', async () => {
    const gw = await lockingGateway(60_000);
    await lockOut(gw);
    const c = clientOf(gw, tokenOf('admin'));
    const err = await c.start({ attempts: 1 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'RATE_LIMITED', retryable: true, message: expect.stringContaining('too many failed connects') });
    expect((err as { retryAfterMs?: number }).retryAfterMs).toBeGreaterThan(50_000);
    expect(c.state.status).toBe('closed');
  });
});
