import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../agent/sdk.ts';
import { createNodeClient } from '../../client/node.ts';
import { startGateway } from '../gateway.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { item, testConfig, tokenOf } from '../../testing/gateway-harness.ts';
import { laterCommit } from '../../testing/barrier.ts';
import { RestartableGateway } from '../../testing/restartable-gateway.ts';
import { TestClient } from '../../testing/ws-client.ts';
import { memoryLogger } from '../infra/logger.ts';

const gateways: RestartableGateway[] = [];
afterAll(async () => {
  for (const g of gateways) await g.close();
});

async function client(wsUrl: string, who: 'admin' | 'agent', clientId: string) {
  const c = await TestClient.open(wsUrl);
  const res = await c.connect(tokenOf(who), { clientId });
  if (!res.ok) throw new Error(JSON.stringify(res.error));
  return c;
}

describe('gateway restart recovery', () => {
  it('[R3][Q7] after a SIGKILL: pending questions survive, an asker that never returns is cancelled requester-inactive, one that reconnects keeps waiting, expiry holds', async () => {
    const child = await RestartableGateway.start(testConfig);
    gateways.push(child);
    const wsUrl = `ws://127.0.0.1:${child.port}/ws`;
    const admin = await client(wsUrl, 'admin', 'admin-recovery');
    const returns = await client(wsUrl, 'agent', 'agent-returns');
    const vanishes = await client(wsUrl, 'agent', 'agent-vanishes');
    // Q11: one pending blocking question per session, so each gets its own.
    const [kept, expiring, dropped] = await Promise.all(
      ['kept', 'expiring', 'dropped'].map(async (title) => (await admin.call('sessions.create', { title })).session.key),
    );
    await returns.call('question.request', { id: 'q-kept', sessionKey: kept, questions: [item()] });
    await returns.call('question.request', { id: 'q-expiring', sessionKey: expiring, questions: [item()], timeoutMs: 30_000 });
    await vanishes.call('question.request', { id: 'q-dropped', sessionKey: dropped, questions: [item()] });
    await vanishes.call('question.request', { id: 'q-async', sessionKey: dropped, mode: 'async', questions: [item()] });
    for (const c of [admin, returns, vanishes]) c.close();

    await child.kill();

    // Started again on the same file, with a clock the test moves.
    const clock = new FakeClock(Date.now());
    const { log, lines: logs } = memoryLogger();
    const gw = await startGateway({ port: 0, dbPath: child.dbPath, config: testConfig, clock, checkFrames: true, log, tickIntervalMs: 3_600_000 });
    try {
      const admin2 = await client(gw.wsUrl, 'admin', 'admin-recovery');
      const pending = await admin2.call('question.list', { status: 'pending' });
      expect(pending.questions.map((q) => q.id).sort()).toEqual(['q-async', 'q-dropped', 'q-expiring', 'q-kept']);

      clock.advance(10_000);
      const back = await client(gw.wsUrl, 'agent', 'agent-returns');
      const wait = back.call('question.waitAnswer', { id: 'q-kept', timeoutMs: 600_000 });
      // Its own timeout's timer is set once the wait is in place.
      await clock.timerSet(clock.now() + 600_000);
      // 30 s since the start: the absent asker's grace is over and the 30 s question has run out.
      clock.advance(20_000);
      const cancelled = await admin2.waitEvent('question.resolved', (e) => e.id === 'q-dropped');
      expect(cancelled).toMatchObject({ status: 'cancelled', reason: 'requester-inactive' });
      const expired = await admin2.waitEvent('question.resolved', (e) => e.id === 'q-expiring');
      expect(expired.status).toBe('expired');
      clock.advance(60_000);
      await laterCommit(admin2);
      expect((await admin2.call('question.get', { id: 'q-kept' })).question.status).toBe('pending');
      // Async questions never block their asker, so its absence leaves them be.
      expect((await admin2.call('question.get', { id: 'q-async' })).question.status).toBe('pending');

      await admin2.call('question.resolve', { id: 'q-kept', answers: { env: ['Production'] } });
      expect(await wait).toEqual({ status: 'answered', answers: { env: ['Production'] }, receipt: expect.any(String) });
      expect(logs.filter((l) => /failed/.test(l))).toEqual([]);
    } finally {
      await gw.close();
    }
  }, 60_000);

  it('[P7][R3][Q7] an SDK agent waiting through a SIGKILL and restart on the same port keeps its question and gets one answer', async () => {
    const child = await RestartableGateway.start(testConfig);
    gateways.push(child);
    const agent = await connect({ url: child.url, token: tokenOf('agent'), backoff: { initialMs: 100, maxMs: 1000 } });
    const admin = createNodeClient({ url: child.url, token: tokenOf('admin'), client: { name: 'recovery-admin', mode: 'cli' }, backoff: { initialMs: 100, maxMs: 1000 } });
    try {
      await admin.start();
      const { session } = await admin.request('sessions.create', { title: 'restart' });
      const results: unknown[] = [];
      const asked = agent.askUser({ questions: [item()] }, { sessionKey: session.key, id: 'q-through-restart' }).then((r) => {
        results.push(r);
        return r;
      });
      await expect.poll(async () => (await admin.request('question.list', { status: 'pending' })).questions.length).toBe(1);

      await child.restart();
      await agent.client.ready(30_000);
      await admin.ready(30_000);
      const { question } = await admin.request('question.get', { id: 'q-through-restart' });
      expect(question.status).toBe('pending');
      await admin.request('question.resolve', { id: 'q-through-restart', answers: { env: ['Staging'] }, resolutionId: 'once' });
      // A repeat of the same resolve (a re-send) answers the first result, never a second answer (Q5).
      expect(await admin.request('question.resolve', { id: 'q-through-restart', answers: { env: ['Staging'] }, resolutionId: 'once' })).toEqual({
        status: 'answered',
        answers: { env: ['Staging'] },
      });
      expect(await asked).toMatchObject({ status: 'answered', answers: { answers: { env: ['Staging'] } } });
      expect(results).toHaveLength(1);
    } finally {
      agent.close();
      admin.close();
    }
  }, 60_000);

  it('[C4][R3] a run streaming through a SIGKILL and restart: what was acknowledged is there, and the stream goes on and ends in the same message', async () => {
    const child = await RestartableGateway.start(testConfig);
    gateways.push(child);
    const backoff = { initialMs: 100, maxMs: 1000 };
    const agent = await connect({ url: child.url, token: tokenOf('agent'), backoff });
    const admin = createNodeClient({ url: child.url, token: tokenOf('admin'), client: { name: 'stream-admin', mode: 'cli' }, backoff });
    try {
      await admin.start();
      const { session } = await admin.request('sessions.create', { title: 'stream through a restart' });
      const runId = await agent.startRun(session.key);
      const first = await agent.stream(runId, 'Thinking');
      expect(await agent.stream(runId, 'Thinking it over')).toBe(first);

      await child.restart();
      await agent.client.ready(30_000);
      await admin.ready(30_000);
      const assistant = async () => (await admin.request('chat.history', { sessionKey: session.key })).messages.filter((m) => m.role === 'assistant');
      expect(await assistant()).toMatchObject([{ id: first, runId, text: 'Thinking it over' }]);

      const finals: string[] = [];
      admin.on('chat', (p) => p.sessionKey === session.key && p.state === 'final' && finals.push(p.message.id));
      expect(await agent.stream(runId, 'Thinking it over slowly')).toBe(first);
      expect(await agent.say(runId, 'Thinking it over slowly: done.')).toBe(first);
      await agent.endRun(runId, 'end_turn');
      expect(await assistant()).toMatchObject([{ id: first, runId, text: 'Thinking it over slowly: done.' }]);
      await expect.poll(() => finals).toEqual([first]);
      // After its final a run's next message is a new one.
      const next = await agent.startRun(session.key);
      expect(await agent.say(next, 'A new reply.')).not.toBe(first);
    } finally {
      agent.close();
      admin.close();
    }
  }, 60_000);
});
