import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type RunningGateway } from '../gateway/gateway.ts';
import { AskdockError } from '../protocol/index.ts';
import { type GatewayConfig } from '../gateway/config.ts';
import { createNodeClient } from './node.ts';
import { spawnGateway } from '../testing/gateway-child.ts';
import { gatewayUrls, type GatewayClient } from './client.ts';
import { silentLogger } from '../gateway/infra/logger.ts';

const config: GatewayConfig = {
  identities: [
    { id: 'op', token: 'operator-token-0123456789ab', role: 'operator', scopes: ['operator.admin'] },
    { id: 'bot', token: 'agent-token-0123456789abcd', role: 'agent', scopes: ['agent.run'] },
  ],
};
const question = {
  questions: [{ id: 'env', header: 'Environment', question: 'Where?', options: [{ label: 'Staging' }, { label: 'Production' }] }],
};

let dir: string;
let gw: RunningGateway;
const clients: GatewayClient[] = [];

function client(token: string, extra: Partial<Parameters<typeof createNodeClient>[0]> = {}) {
  const c = createNodeClient({
    url: gw.wsUrl,
    token,
    client: { name: 'test', mode: token.startsWith('agent') ? 'agent' : 'ui' },
    backoff: { initialMs: 20, maxMs: 100 },
    ...extra,
  });
  clients.push(c);
  return c;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'askdock-client-'));
  gw = await startGateway({ host: '127.0.0.1', port: 0, dbPath: join(dir, 'db.sqlite'), config, checkFrames: true, log: silentLogger() });
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await gw.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('GatewayClient', () => {
  it('[P4][P5] completes the handshake and reports the identity', async () => {
    const op = client('operator-token-0123456789ab');
    const hello = await op.start();
    expect(hello.auth.identity).toBe('op');
    expect(hello.resumed).toBe(false);
    expect(op.state.status).toBe('connected');
  });

  it('[P4] a bad token ends in state closed with UNAUTHORIZED and no retry', async () => {
    const bad = client('wrong-token-xx');
    await expect(bad.start()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(bad.state.status).toBe('closed');
  });

  it('[P2] typed requests resolve with results and reject with stable error codes', async () => {
    const op = client('operator-token-0123456789ab');
    await op.start();
    const { session } = await op.request('sessions.create', { title: 'Client test' });
    expect(session.title).toBe('Client test');
    const err = await op.request('question.get', { id: 'nope' }).catch((e) => e);
    expect(err).toBeInstanceOf(AskdockError);
    expect(err.code).toBe('QUESTION_NOT_FOUND');
  });

  it('[P2] cancel gives up a long waitAnswer and the gateway answers nothing more', async () => {
    const bot = client('agent-token-0123456789abcd');
    await bot.start();
    const { id } = await bot.request('question.request', question);
    const ac = new AbortController();
    const wait = bot.request('question.waitAnswer', { id }, { signal: ac.signal, timeoutMs: 0 });
    // Cancelled once the gateway holds the wait: a request sent after it on the same connection was answered.
    await bot.request('question.get', { id });
    ac.abort();
    await expect(wait).rejects.toThrow();
    // The connection stays usable after the cancel.
    const got = await bot.request('question.get', { id });
    expect(got.question.status).toBe('pending');
  });

  it('[P7] a request made before the connection exists is sent once connected', async () => {
    const op = client('operator-token-0123456789ab');
    const pending = op.request('sessions.list', {});
    await op.start();
    expect((await pending).sessions).toEqual([]);
  });

  it('[P7][R2] reconnects after a drop, resumes from its cursor and keeps waiting on the same question', async () => {
    const op = client('operator-token-0123456789ab');
    const bot = client('agent-token-0123456789abcd');
    await Promise.all([op.start(), bot.start()]);
    const seen: string[] = [];
    op.on('question.requested', (p) => seen.push(p.question.id));
    const { id } = await bot.request('question.request', question);
    const wait = bot.request('question.waitAnswer', { id }, { timeoutMs: 0 });
    await expect.poll(() => seen).toEqual([id]);

    let hellos = 0;
    op.onHello(() => hellos++);
    op.dropConnection();
    bot.dropConnection();
    const second = client('agent-token-0123456789abcd', { client: { name: 'other', mode: 'agent' } });
    await second.start();
    const { id: id2 } = await second.request('question.request', {
      questions: [{ ...question.questions[0], id: 'other' }],
      mode: 'async',
    });
    await expect.poll(() => hellos).toBe(1);
    expect(op.hello?.resumed).toBe(true);
    await expect.poll(() => seen).toEqual([id, id2]);

    await op.request('question.resolve', { id, answers: { env: ['staging'] } });
    await expect(wait).resolves.toMatchObject({ status: 'answered', answers: { env: ['Staging'] } });
    const { questions } = await op.request('question.list', {});
    expect(questions.map((q) => q.id)).toEqual([id, id2]);
  });

  it('[R2] a client whose hello came before the gateway had any event resumes from cursor 0 and gets what it missed', async () => {
    // It stays away after the drop until the test brings it back.
    const op = client('operator-token-0123456789ab', { backoff: { initialMs: 3_600_000, maxMs: 3_600_000 } });
    expect((await op.start()).snapshot.cursor).toBe(0);
    const titles: string[] = [];
    op.on('session.updated', (p) => titles.push(p.session.title));
    op.dropConnection();
    const other = client('operator-token-0123456789ab');
    await other.start();
    await other.request('sessions.create', { title: 'while away' });
    const back = new Promise<boolean>((resolve) => {
      const off = op.onHello((h) => (off(), resolve(h.resumed)));
    });
    op.reconnectNow();
    expect(await back).toBe(true);
    await expect.poll(() => titles).toEqual(['while away']);
  });

  it('[R2] a first connect with initialCursor 0 gets a fresh snapshot, not every event the gateway kept', async () => {
    const op = client('operator-token-0123456789ab');
    await op.start();
    await op.request('sessions.create', { title: 'made before' });
    const fresh = client('operator-token-0123456789ab', { initialCursor: 0 });
    const titles: string[] = [];
    fresh.on('session.updated', (p) => titles.push(p.session.title));
    const hello = await fresh.start();
    expect(hello.resumed).toBe(false);
    expect(hello.snapshot.sessions.map((s) => s.title)).toContain('made before');
    await fresh.request('sessions.list', {});
    expect(titles).toEqual([]);
  });

  it('[P6] closes with 4000 and reconnects when a frozen gateway stops ticking', async () => {
    // A stopped process is a real silent link: TCP stays up, nothing arrives.
    const cfg = join(dir, 'config.json');
    // Ticks a second apart (silence for two means dead): a busy machine's stall of a few hundred ms is not mistaken for a frozen gateway.
    writeFileSync(cfg, JSON.stringify({ ...config, policy: { tickIntervalMs: 1_000 } }));
    const child = await spawnGateway(['--port', '0', '--db', join(dir, 'child.sqlite'), '--config', cfg]);
    try {
      const op = createNodeClient({ url: child.wsUrl, token: 'operator-token-0123456789ab', client: { name: 't', mode: 'ui' }, backoff: { initialMs: 50, maxMs: 100 } });
      clients.push(op);
      await op.start();
      const states: string[] = [];
      op.onState((s) => states.push(s.status));
      // A running gateway's ticks keep the link: three of them arrive and nothing was dropped meanwhile.
      let ticks = 0;
      op.on('tick', () => ticks++);
      await expect.poll(() => ticks, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
      expect(states).toEqual([]);
      child.proc.kill('SIGSTOP');
      await expect.poll(() => states.includes('reconnecting'), { timeout: 30_000 }).toBe(true);
      child.proc.kill('SIGCONT');
      await expect.poll(() => op.state.status, { timeout: 30_000 }).toBe('connected');
    } finally {
      child.proc.kill('SIGKILL');
    }
  }, 120_000);
});

describe('GatewayClient and RATE_LIMITED', () => {
  it('[P7][errors] waits retryAfterMs and sends an idempotent request again by itself; other requests get the refusal', async () => {
    await gw.close();
    // The operator: room for the session and one message, then one a second, so the second of two messages sent together
    // is refused (unless a second passed between them: then nothing is refused and the same holds). The agent: one
    // request, then one per 100 s, so the second of two is refused however slow the machine.
    const rateLimit = { operator: { burst: 2, perSecond: 1 }, agent: { burst: 1, perSecond: 0.01 } };
    gw = await startGateway({ host: '127.0.0.1', port: 0, dbPath: join(dir, 'limited.sqlite'), config, rateLimit, checkFrames: true, log: silentLogger() });
    const op = client('operator-token-0123456789ab');
    await op.start();
    const { session } = await op.request('sessions.create', { title: 'Limited' });
    const sends = [1, 2].map((n) => op.request('chat.send', { sessionKey: session.key, message: `m${n}`, idempotencyKey: `limited-${n}-key` }));
    const results = await Promise.all(sends);
    expect(results.map((r) => r.deduped)).toEqual([false, false]);
    const { messages } = await op.request('chat.history', { sessionKey: session.key });
    expect(messages.map((m) => m.text)).toEqual(['m1', 'm2']);

    const bot = client('agent-token-0123456789abcd');
    await bot.start();
    const asks = await Promise.allSettled([bot.request('question.request', question), bot.request('question.request', { ...question, mode: 'async' })]);
    expect(asks.filter((a) => a.status === 'rejected').map((a) => (a as PromiseRejectedResult).reason.code)).toEqual(['RATE_LIMITED']);
  });

  it('[P7][errors] gives the refusal back when retryAfterMs would pass the request timeout', async () => {
    await gw.close();
    gw = await startGateway({ host: '127.0.0.1', port: 0, dbPath: join(dir, 'slow.sqlite'), config, rateLimit: { burst: 1, perSecond: 0.01 }, checkFrames: true, log: silentLogger() });
    const op = client('operator-token-0123456789ab');
    await op.start();
    await op.request('sessions.list', {});
    await expect(op.request('sessions.list', {}, { timeoutMs: 5000 })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('[D4] given several URLs, moves past a gateway that is down to the next one, and to the next again when that one goes', async () => {
    const dead = 'ws://127.0.0.1:9/ws';
    const other = await startGateway({ host: '127.0.0.1', port: 0, dbPath: join(dir, 'other.sqlite'), config });
    try {
      const op = client('operator-token-0123456789ab', { url: [dead, gw.wsUrl, other.wsUrl] });
      const hello = await op.start();
      expect(hello.auth.identity).toBe('op');
      expect(op.url).toBe(gw.wsUrl);
      await gw.close();
      await expect.poll(() => op.state.status === 'connected' && op.url, { timeout: 10_000 }).toBe(other.wsUrl);
      expect((await op.request('sessions.list', {})).sessions).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('[P7][U11] "reconnect now" starts the backoff over: a failed try right after it waits the first step, not the grown one', async () => {
    const c = createNodeClient({ url: 'ws://127.0.0.1:9/ws', token: 'operator-token-0123456789ab', client: { name: 'test', mode: 'ui' }, backoff: { initialMs: 200, maxMs: 60_000 } });
    clients.push(c);
    c.start().catch(() => undefined);
    await expect.poll(() => c.state.attempt, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    // The next retry scheduled after "reconnect now": the try made at once fails too (nothing listens there).
    const next = new Promise<{ attempt: number; waitMs: number }>((done) => {
      const off = c.onState((s) => {
        if (s.nextAttemptAtMs === undefined) return;
        off();
        done({ attempt: s.attempt, waitMs: s.nextAttemptAtMs - Date.now() });
      });
    });
    c.reconnectNow();
    const { attempt, waitMs } = await next;
    expect(attempt).toBe(1);
    expect(waitMs).toBeLessThanOrEqual(200);
  });

  it('[D4] reads several URLs from one comma-separated string', () => {
    expect(gatewayUrls('ws://a:7420, ws://b:7420,')).toEqual(['ws://a:7420', 'ws://b:7420']);
    expect(() => gatewayUrls(' , ')).toThrow(/at least one gateway URL/);
  });
});
