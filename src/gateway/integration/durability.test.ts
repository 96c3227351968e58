import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { realClock, type Clock } from '../infra/clock.ts';
import { startGateway } from '../gateway.ts';
import { spawnGateway, type GatewayChild } from '../../testing/gateway-child.ts';
import { item, testConfig, tokenOf } from '../../testing/gateway-harness.ts';
import { TestClient } from '../../testing/ws-client.ts';
import { silentLogger } from '../infra/logger.ts';

const dir = mkdtempSync(join(tmpdir(), 'askdock-r3-'));
const db = join(dir, 'askdock.db');
const config = join(dir, 'config.json');
// This test is about durability under load, not rate limits: it sets a limit no sender here can reach, however fast the machine.
const UNLIMITED = { burst: 1_000_000, perSecond: 1_000_000 };
writeFileSync(config, JSON.stringify({ ...testConfig, policy: { rateLimit: UNLIMITED } }));
const children: GatewayChild[] = [];
afterAll(() => {
  for (const c of children) c.proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function client(wsUrl: string, who: 'admin' | 'agent') {
  const c = await TestClient.open(wsUrl);
  const res = await c.connect(tokenOf(who), { clientId: `${who}-durable` });
  if (!res.ok) throw new Error(JSON.stringify(res.error));
  return c;
}

describe('durability', () => {
  it('[R3][C2] a gateway killed with SIGKILL under load keeps everything it acknowledged, and expires what ran out meanwhile', async () => {
    const first = await spawnGateway(['--port', '0', '--db', db, '--config', config]);
    children.push(first);
    const admin = await client(first.wsUrl, 'admin');
    const agent = await client(first.wsUrl, 'agent');
    const { session } = await admin.call('sessions.create', { title: 'durable' });

    const messages = new Map<string, string>();
    const pendingQuestions = new Map<string, number>();
    const answered = new Map<string, string>();
    let stop = false;
    const sender = async (lane: number) => {
      for (let i = 0; !stop; i++) {
        const key = `lane-${lane}-msg-${i}`;
        const res = await admin.request('chat.send', { sessionKey: session.key, message: `message ${lane}/${i}`, idempotencyKey: key });
        if (res.ok) messages.set(key, (res.payload as { messageId: string }).messageId);
        else return;
      }
    };
    const asker = async () => {
      for (let i = 0; !stop; i++) {
        const res = await agent.request('question.request', { questions: [item()], timeoutMs: 30_000 });
        if (!res.ok) return;
        const { id, expiresAtMs } = res.payload as { id: string; expiresAtMs: number };
        if (i % 3 === 0) {
          const done = await admin.request('question.resolve', { id, answers: { env: ['Production'] } });
          if (done.ok) answered.set(id, 'Production');
          else if (!stop) pendingQuestions.set(id, expiresAtMs);
        } else pendingQuestions.set(id, expiresAtMs);
      }
    };
    void Promise.all([sender(1), sender(2), sender(3), asker(), asker()]);
    // Warm up, then kill at a moment the load is in full flow: once it has done more than the checks below ask for.
    await expect.poll(() => messages.size > 20 && pendingQuestions.size + answered.size > 10, { timeout: 60_000 }).toBe(true);
    first.proc.kill('SIGKILL');
    const died = await first.exit;
    stop = true;
    expect(died.signal).toBe('SIGKILL');
    // Answers the dead gateway wrote before dying arrive before its sockets' close: after that no request ends well.
    await Promise.all([admin.waitClose(30_000), agent.waitClose(30_000)]);
    expect(messages.size).toBeGreaterThan(20);
    expect(pendingQuestions.size + answered.size).toBeGreaterThan(10);

    // Started again on the same file: every acknowledged message, key, question and answer is there.
    const second = await spawnGateway(['--port', '0', '--db', db, '--config', config]);
    children.push(second);
    const admin2 = await client(second.wsUrl, 'admin');
    const kept = new Set<string>();
    let before: string | undefined;
    for (;;) {
      const page = await admin2.call('chat.history', { sessionKey: session.key, limit: 500, ...(before ? { before } : {}) });
      for (const m of page.messages) kept.add(m.id);
      if (!page.hasMore) break;
      before = page.messages[0].id;
    }
    for (const id of messages.values()) expect(kept.has(id)).toBe(true);
    const [someKey, someId] = [...messages][messages.size - 1];
    const again = await admin2.call('chat.send', { sessionKey: session.key, message: 'resend', idempotencyKey: someKey });
    expect(again).toMatchObject({ messageId: someId, deduped: true });
    for (const [key, id] of messages) {
      const res = await admin2.call('chat.send', { sessionKey: session.key, message: 'resend', idempotencyKey: key });
      expect(res.messageId).toBe(id);
    }
    for (const [id] of answered) expect((await admin2.call('question.get', { id })).question.answers).toEqual({ env: ['Production'] });
    for (const [id] of pendingQuestions) expect(['pending', 'answered']).toContain((await admin2.call('question.get', { id })).question.status);
    admin2.close();
    second.proc.kill('SIGTERM');
    expect((await second.exit).code).toBe(0);

    // Started after the questions' deadlines: they expire on start, within a second.
    const later: Clock = { ...realClock, now: () => Date.now() + 2 * 3_600_000 };
    const third = await startGateway({ port: 0, dbPath: db, configPath: config, clock: later, checkFrames: true, log: silentLogger() });
    try {
      const admin3 = await client(third.wsUrl, 'admin');
      for (const [id] of pendingQuestions) {
        const { question } = await admin3.call('question.get', { id });
        if (!answered.has(id) && question.status !== 'answered') expect(question.status).toBe('expired');
      }
      expect((await admin3.call('question.list', { status: 'pending' })).questions).toEqual([]);
      admin3.close();
    } finally {
      await third.close();
    }
  }, 120_000);
});
