import { afterEach, describe, expect, it } from 'vitest';
import { clusterPerTest, type Cluster } from '../../testing/gateway-cluster.ts';
import { item, startTestGateway, tokenOf, type TestGateway } from '../../testing/gateway-harness.ts';
import { TestClient, type Response } from '../../testing/ws-client.ts';
import type { ChatMessage } from '../../protocol/session.ts';
import { LEASE_MS, RENEW_EVERY_MS } from '../infra/duties.ts';

// Each gateway is its own process, as in production: two in one process would wait on each other's transactions.
const clusters = clusterPerTest('multi');
let single: TestGateway | undefined;

afterEach(async () => {
  await single?.close();
  single = undefined;
});

const gateways = (count: number): Promise<Cluster> => clusters.start(count);

const seqs = (c: TestClient, after: number, upTo: number) => c.seqEvents().filter((e) => e.seq! > after && e.seq! <= upTo).map((e) => `${e.seq}:${e.event}`);
const errorOf = (r: Response) => r.error?.code;

/**
 * `asker` asks an async question after the fact; resolves with its seq once every watcher heard it. Events go out in seq
 * order on every gateway (D2), so by then each watcher has every event committed before it: what it lacks never came.
 */
async function barrier(asker: TestClient, watchers: TestClient[]): Promise<{ id: string; seq: number }> {
  const { id } = await asker.call('question.request', { mode: 'async', questions: [item({ id: 'barrier' })] });
  let seq = 0;
  for (const w of watchers) seq = (await w.waitEvent('question.requested', (p) => p.question.id === id, 30_000)).seq!;
  return { id, seq };
}
const LONG = { timeout: 120_000 };

describe('several gateways on one PostgreSQL database', () => {
  it('[D1] a gateway keeps sessions, messages and questions in PostgreSQL across a restart', LONG, async () => {
    single = await startTestGateway({ dbPath: clusters.schema.url });
    const admin = await single.connect('admin');
    const agent = await single.connect('agent');
    const { session } = await admin.call('sessions.create', { title: 'Kept' });
    await admin.call('chat.send', { sessionKey: session.key, message: 'still here', idempotencyKey: 'd1-key-0001' });
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    await single.close();

    single = await startTestGateway({ dbPath: clusters.schema.url });
    const back = await single.connect('admin');
    expect(back.hello!.snapshot.sessions.map((s) => s.title)).toEqual(['Kept']);
    expect(back.hello!.snapshot.pendingQuestions.map((q) => q.id)).toEqual([id]);
    const { messages } = await back.call('chat.history', { sessionKey: session.key });
    expect(messages.map((m) => m.text)).toEqual(['still here']);
    const again = await back.call('chat.send', { sessionKey: session.key, message: 'still here', idempotencyKey: 'd1-key-0001' });
    expect(again.deduped).toBe(true);
  });

  it("[D2] a question asked through one gateway is in the other's snapshot and events, answerable there, and resolves once", LONG, async () => {
    const c = await gateways(2);
    const agent = await c.connect(0, 'agent');
    const watcherB = await c.connect(1, 'admin');
    const watcherA = await c.connect(0, 'questions');
    const { id } = await agent.call('question.request', { questions: [item()] });
    const requested = await watcherB.waitEvent('question.requested', (p) => p.question.id === id, 10_000);
    expect(requested.question.askedBy).toBe('agent');
    const lateB = await c.connect(1, 'questions');
    expect(lateB.hello!.snapshot.pendingQuestions.map((q) => q.id)).toEqual([id]);

    const waiting = agent.call('question.waitAnswer', { id, includeResolutionId: true });
    const first = await lateB.call('question.resolve', { id, answers: { env: ['Production'] }, resolutionId: 'res-b-1' });
    expect(first).toEqual({ status: 'answered', answers: { env: ['Production'] } });
    expect(await waiting).toEqual({ status: 'answered', answers: { env: ['Production'] }, resolutionId: 'res-b-1', receipt: expect.any(String) });

    const adminA = await c.connect(0, 'admin');
    const late = await adminA.request('question.resolve', { id, answers: { env: ['Staging'] } });
    expect(errorOf(late)).toBe('QUESTION_ALREADY_TERMINAL');
    const repeat = await adminA.call('question.resolve', { id, answers: { env: ['Production'] }, resolutionId: 'res-b-1' });
    expect(repeat).toEqual(first);
    await watcherA.waitEvent('question.resolved', (p) => p.id === id, 10_000);
    await barrier(agent, [watcherA, watcherB]);
    expect(watcherA.eventsNamed('question.resolved').filter((p) => p.id === id)).toHaveLength(1);
    expect(watcherB.eventsNamed('question.resolved').filter((p) => p.id === id)).toHaveLength(1);
  });

  it('[D2] resolves racing on two gateways: the database lets exactly one win', LONG, async () => {
    const c = await gateways(2);
    const agent = await c.connect(0, 'agent');
    const opA = await c.connect(0, 'admin');
    const opB = await c.connect(1, 'admin');
    for (let i = 0; i < 8; i++) {
      const { id } = await agent.call('question.request', { questions: [item()] });
      await opB.waitEvent('question.requested', (p) => p.question.id === id, 10_000);
      const [ra, rb] = await Promise.all([
        opA.request('question.resolve', { id, answers: { env: ['Staging'] }, resolutionId: `a-${i}` }),
        opB.request('question.resolve', { id, answers: { env: ['Production'] }, resolutionId: `b-${i}` }),
      ]);
      const outcomes = [ra, rb].map((r) => (r.ok ? 'won' : errorOf(r))).sort();
      expect(outcomes).toEqual(['QUESTION_ALREADY_TERMINAL', 'won']);
      const winner = ra.ok ? 'Staging' : 'Production';
      expect((await opB.call('question.get', { id })).question.answers).toEqual({ env: [winner] });
    }
  });

  it('[D2][C2] the same idempotency key sent through two gateways at once makes one message', LONG, async () => {
    const c = await gateways(2);
    const opA = await c.connect(0, 'admin');
    const opB = await c.connect(1, 'admin');
    const { session } = await opA.call('sessions.create', {});
    for (let i = 0; i < 5; i++) {
      const key = `twice-key-${i}`;
      const [ra, rb] = await Promise.all([
        opA.call('chat.send', { sessionKey: session.key, message: `m${i}`, idempotencyKey: key }),
        opB.call('chat.send', { sessionKey: session.key, message: `m${i}`, idempotencyKey: key }),
      ]);
      expect(ra.messageId).toBe(rb.messageId);
      expect([ra.deduped, rb.deduped].sort()).toEqual([false, true]);
    }
    const { messages } = await opB.call('chat.history', { sessionKey: session.key });
    expect(messages.map((m) => m.text)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
  });

  it('[C2][D2][D4] five sessions at once asking, resolving and sending through one gateway: every resolve and chat.send is accepted, its message numbered as its chat event', LONG, async () => {
    const c = await gateways(2);
    const agent = await c.connect(0, 'agent');
    const op = await c.connect(0, 'admin');
    const sessions = await Promise.all(Array.from({ length: 5 }, (_, i) => op.call('sessions.create', { title: `busy-${i}` })));
    const failures: string[] = [];
    const sent: { id: string; seq: number }[] = [];
    await Promise.all(
      sessions.map(async ({ session }, s) => {
        for (let round = 0; round < 5; round++) {
          const { id } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [item()] });
          const resolved = await op.request('question.resolve', { id, answers: { env: ['Staging'] }, resolutionId: `busy-${s}-${round}` });
          if (!resolved.ok) failures.push(`resolve ${s}-${round}: ${resolved.error?.code} ${resolved.error?.message}`);
          const r = await op.request('chat.send', { sessionKey: session.key, message: `${s}-${round}`, idempotencyKey: `busy-key-${s}-${round}` });
          const done = r.payload as { messageId: string; seq: number } | undefined;
          if (r.ok && done) sent.push({ id: done.messageId, seq: done.seq });
          else failures.push(`send ${s}-${round}: ${r.error?.code} ${r.error?.message}`);
        }
      }),
    );
    expect(failures).toEqual([]);
    // The seq each sender was told is its message's and its chat event's, as every reader sees them.
    const last = Math.max(...sent.map((m) => m.seq));
    await op.until(() => op.seqEvents().find((e) => e.seq! >= last), 10_000, 'the last chat event');
    const chats = op.seqEvents().filter((e) => e.event === 'chat');
    const heard = new Map(chats.map((e) => [(e.payload as { message: ChatMessage }).message.id, [e.seq, (e.payload as { message: ChatMessage }).message.seq]]));
    for (const m of sent) expect(heard.get(m.id), m.id).toEqual([m.seq, m.seq]);
  });

  it('[Q2][D4] a question.request resent through another gateway with its own id answers the first result', LONG, async () => {
    const c = await gateways(2);
    const onA = await c.connect(0, 'agent');
    const onB = await c.connect(1, 'agent');
    const first = await onA.call('question.request', { id: 'deploy-7', questions: [item()] });
    expect(await onB.call('question.request', { id: 'deploy-7', questions: [item()] })).toEqual(first);
    expect(errorOf(await onB.request('question.request', { id: 'deploy-7', questions: [item({ question: 'Else?' })] }))).toBe('QUESTION_ID_IN_USE');
    const other = await c.connect(1, 'agent2');
    expect(errorOf(await other.request('question.request', { id: 'deploy-7', questions: [item()] }))).toBe('QUESTION_ID_IN_USE');
    const admin = await c.connect(1, 'admin');
    expect((await admin.call('question.list', {})).questions).toHaveLength(1);
  });

  it('[D2][R2][A4] a client resumes on another gateway with the cursor it had: nothing missed, nothing twice, nothing it may not see', LONG, async () => {
    const c = await gateways(2);
    const agent = await c.connect(0, 'agent');
    const guest = await c.connect(1, 'guest');
    const { session: own } = await guest.call('sessions.create', {});
    const twin = await c.connect(0, 'guest');
    const leaving = await c.connect(0, 'guest');
    const cursor = leaving.hello!.snapshot.cursor;
    leaving.close();
    await leaving.waitClose();

    await guest.call('chat.send', { sessionKey: own.key, message: 'through b', idempotencyKey: 'resume-b-01' });
    const asked = await agent.call('question.request', { sessionKey: own.key, mode: 'async', questions: [item()] });
    await agent.call('question.request', { questions: [item()] });
    await guest.call('question.resolve', { id: asked.id, answers: { env: ['Staging'] } });
    await twin.until(() => twin.eventsNamed('question.resolved').find((p) => p.id === asked.id), 10_000, 'the resolve on the twin');
    // In the guest's session, so the guest may see it: once the twin has it, the twin has everything before it.
    const mark = await agent.call('question.request', { sessionKey: own.key, mode: 'async', questions: [item({ id: 'barrier' })] });
    const markSeq = (await twin.waitEvent('question.requested', (p) => p.question.id === mark.id, 10_000)).seq!;

    const back = await TestClient.open(c.gateways[1].wsUrl);
    const res = await back.connect(tokenOf('guest'), { resume: { cursor } });
    expect(res.ok).toBe(true);
    expect(back.hello!.resumed).toBe(true);
    await back.waitEvent('question.requested', (p) => p.question.id === mark.id, 10_000);
    back.close();
    expect(seqs(back, cursor, markSeq)).toEqual(seqs(twin, cursor, markSeq));
    expect(seqs(back, cursor, markSeq).length).toBeGreaterThanOrEqual(5);
    // A4: the sessionless question is not the guest's to see, on either gateway.
    const requested = (client: TestClient) => client.eventsNamed('question.requested').map((p) => p.question.id);
    expect(requested(back)).toEqual([asked.id, mark.id]);
    expect(requested(twin)).toEqual([asked.id, mark.id]);
  });

  it('[D2][R2][C6] an agent subscribed through one gateway resumes on another and gets the user messages it missed', LONG, async () => {
    const c = await gateways(2);
    const admin = await c.connect(1, 'admin');
    const { session } = await admin.call('sessions.create', {});
    const first = await c.connect(0, 'agent', { clientId: 'roaming-agent' });
    await first.call('agent.subscribe', { sessionKey: session.key });
    const cursor = first.hello!.snapshot.cursor;
    first.close();
    await first.waitClose();

    const sent = await admin.call('chat.send', { sessionKey: session.key, message: 'while you were away', idempotencyKey: 'roam-msg-01' });
    const back = await TestClient.open(c.gateways[1].wsUrl);
    const res = await back.connect(tokenOf('agent'), { clientId: 'roaming-agent', resume: { cursor } });
    expect(res.ok).toBe(true);
    expect(back.hello!.resumed).toBe(true);
    const replayed = await back.waitEvent('chat', (p) => p.message.id === sent.messageId, 10_000);
    expect(replayed.message.text).toBe('while you were away');
    // Live too, on the new gateway, without subscribing again.
    const next = await admin.call('chat.send', { sessionKey: session.key, message: 'and now', idempotencyKey: 'roam-msg-02' });
    await back.waitEvent('chat', (p) => p.message.id === next.messageId, 10_000);
    back.close();
  });

  it('[D2] every connection hears each event once, in seq order, whichever gateway committed it', LONG, async () => {
    const c = await gateways(3);
    const watchers = [await c.connect(0, 'admin'), await c.connect(1, 'admin'), await c.connect(2, 'admin')];
    const writers = [await c.connect(0, 'admin'), await c.connect(1, 'admin'), await c.connect(2, 'admin')];
    const cursor0 = watchers[0].hello!.snapshot.cursor;
    const { session } = await writers[0].call('sessions.create', {});
    await Promise.all(
      writers.map(async (w, i) => {
        for (let n = 0; n < 10; n++) await w.call('chat.send', { sessionKey: session.key, message: `${i}-${n}`, idempotencyKey: `order-${i}-${n}` });
      }),
    );
    const last = (await writers[2].call('chat.history', { sessionKey: session.key, limit: 1 })).messages[0].seq + 1;
    for (const w of watchers) await w.until(() => w.seqEvents().find((e) => e.seq === last), 10_000, 'the last event');
    const heard = watchers.map((w) => w.seqEvents().map((e) => e.seq!).filter((s) => s > cursor0));
    for (const list of heard) expect(list).toEqual(heard[0]);
    // One sequence, no holes: the session's creation, then per message its chat and session.updated events.
    expect(heard[0]).toEqual(Array.from({ length: last - cursor0 }, (_, i) => cursor0 + 1 + i));
  });
});

describe('duties across gateways (D3)', () => {
  it('[D3][Q7] when the gateway holding the duties dies, another expires and cancels, once, within the lease hand-over and after the grace', { timeout: 180_000 }, async () => {
    const c = await gateways(3);
    // The first gateway started first, so it holds the duties.
    const asker = await c.connect(0, 'agent', { clientId: 'stays-on-dead' });
    const roamer = await c.connect(1, 'agent', { clientId: 'roams' });
    const watchers = [await c.connect(1, 'admin'), await c.connect(2, 'admin')];
    const { id: expiring, expiresAtMs } = await asker.call('question.request', { questions: [item()], timeoutMs: 30_000 });
    const { id: abandoned } = await asker.call('question.request', { questions: [item({ id: 'other' })], timeoutMs: 3_600_000 });
    const { id: kept } = await roamer.call('question.request', { questions: [item({ id: 'kept' })], timeoutMs: 3_600_000 });
    // The roaming asker moves to another gateway: its question must outlive the grace period.
    roamer.close();
    await roamer.waitClose();
    const roamed = await c.connect(2, 'agent', { clientId: 'roams' });

    // Killed twice a hand-over before the expiry falls due: a test process woken a few seconds late still kills the
    // holder before it could expire the question itself (the expiry below is then always another gateway's).
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAtMs! - 2 * (LEASE_MS + RENEW_EVERY_MS) - Date.now())));
    const diedAt = Date.now();
    await c.kill(0);
    const expired = await watchers[0].waitEvent('question.resolved', (p) => p.id === expiring, 30_000);
    const expiredAfterDeath = Date.now() - diedAt;
    expect(expired.status).toBe('expired');
    // D3's 5 s is the lease: a dead holder's duties pass on once its lease runs out, at the next try to take it.
    expect(LEASE_MS + RENEW_EVERY_MS).toBeLessThanOrEqual(5_000);
    // It was taken over, not merely late: expired while the holder stayed dead, within a generous multiple of that
    // hand-over from when it fell due (a loaded machine delays timers, the lease does not stretch). The lease is the
    // timeout under test, so this bound stays; it is ten hand-overs, not a figure tuned to this machine.
    expect(expiredAfterDeath).toBeLessThan(Math.max(0, expiresAtMs! - diedAt) + 10 * (LEASE_MS + RENEW_EVERY_MS));

    const cancelled = await watchers[1].waitEvent('question.resolved', (p) => p.id === abandoned, 60_000);
    expect(cancelled).toMatchObject({ status: 'cancelled', reason: 'requester-inactive' });
    // A lower bound only: load can make it later, never earlier.
    expect(Date.now() - diedAt).toBeGreaterThanOrEqual(30_000);
    await barrier(roamed, watchers);
    for (const w of watchers) {
      expect(w.eventsNamed('question.resolved').filter((p) => p.id === expiring)).toHaveLength(1);
      expect(w.eventsNamed('question.resolved').filter((p) => p.id === abandoned)).toHaveLength(1);
    }
    expect((await watchers[0].call('question.get', { id: kept })).question.status).toBe('pending');
  });
});
