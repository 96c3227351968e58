/** Test helpers for src/agent and src/cli: a real gateway on a temporary SQLite file, and event waits. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayClient } from '../client/client.ts';
import { createNodeClient } from '../client/node.ts';
import type { Clock } from '../gateway/infra/clock.ts';
import { startGateway, type RunningGateway } from '../gateway/gateway.ts';
import type { EventName, EventPayload, HelloOk } from '../protocol/index.ts';
import type { GatewayConfig } from '../gateway/config.ts';
import { silentLogger } from '../gateway/infra/logger.ts';

export type TestGateway = {
  gateway: RunningGateway;
  /** ws://127.0.0.1:N/ws */
  url: string;
  operatorToken: string;
  agentToken: string;
  dir: string;
  /** An operator (operator.admin) connection, already connected. */
  operator: GatewayClient;
  close(): Promise<void>;
};

/** A clock that runs `speed` times faster than real time, so a 30 s question expires in a blink. */
export function fastClock(speed: number): Clock {
  const origin = Date.now();
  return {
    now: () => origin + (Date.now() - origin) * speed,
    setTimeout: (fn, ms) => {
      const t = setTimeout(fn, Math.max(0, ms) / speed);
      t.unref();
      return t;
    },
    clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  };
}

export async function startTestGateway(opts: { clock?: Clock; requesterGraceMs?: number; config?: GatewayConfig; auditSigning?: boolean } = {}): Promise<TestGateway> {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-agent-'));
  const gateway = await startGateway({
    host: '127.0.0.1',
    port: 0,
    dbPath: join(dir, 'askdock.db'),
    checkFrames: true,
    log: silentLogger(),
    // Receipts are checked in src/gateway/audit/; elsewhere results are compared whole, without one.
    auditSigning: opts.auditSigning ?? false,
    ...(opts.config ? { config: opts.config } : {}),
    ...(opts.clock ? { clock: opts.clock, handshakeTimeoutMs: 10_000_000, tickIntervalMs: 10_000_000 } : {}),
    ...(opts.requesterGraceMs !== undefined ? { requesterGraceMs: opts.requesterGraceMs } : {}),
  });
  const ids = gateway.identities.identities;
  const operatorToken = ids.find((i) => i.role === 'operator')!.token!;
  const agentToken = ids.find((i) => i.role === 'agent')!.token!;
  const operator = createNodeClient({ url: gateway.wsUrl, token: operatorToken, client: { name: 'test-operator', mode: 'ui' } });
  await operator.start();
  return {
    gateway,
    url: gateway.wsUrl,
    operatorToken,
    agentToken,
    dir,
    operator,
    async close() {
      operator.close();
      await gateway.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves with the next `event` whose payload passes `match`. */
export function nextEvent<E extends EventName>(
  client: GatewayClient,
  event: E,
  match: (payload: EventPayload<E>) => boolean = () => true,
  // Generous: a child process that starts TypeScript through tsx takes seconds on a busy machine.
  timeoutMs = 60_000,
): Promise<EventPayload<E>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${event} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = client.on(event, (payload) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}

/** Resolves with the client's next hello-ok (its next handshake). */
export function nextHello(client: GatewayClient): Promise<HelloOk> {
  return new Promise((resolve) => {
    const off = client.onHello((hello) => {
      off();
      resolve(hello);
    });
  });
}

/** Polls `check` until it returns a value other than undefined; the bound only limits how long a failing check waits. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
