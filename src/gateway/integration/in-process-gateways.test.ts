import { describe, expect, it } from 'vitest';
import { item } from '../../testing/gateway-harness.ts';
import { oneSessionPerKey, readsSeeEarlierChanges } from '../../testing/concurrent-requests.ts';
import type { SharedStore } from '../store/postgres/store.ts';
import { holdReads, inProcessGateways, secretWaitSet } from '../../testing/in-process-gateways.ts';

// D2: two gateways in one process on one database share its writes, its numbering and its secrets (the setup's note
// on why they must take turns is in src/testing/in-process-gateways.ts); what each gateway decides from events it heard is in
// in-process-heard.test.ts.
const { one: oneGateway, two: twoGateways } = inProcessGateways();

describe('two PostgreSQL gateways in one process', () => {
  it('[D2] writes on both in the same turns neither block nor fail, and each sees the other\'s', { timeout: 120_000 }, async () => {
    const [a, b] = await twoGateways();
    const adminA = await a.connect('admin');
    const adminB = await b.connect('admin');
    const { session } = await adminA.call('sessions.create', { title: 'Both' });
    const sent: string[] = [];
    for (let round = 0; round < 15; round++) {
      const texts = [`a-${round}-1`, `b-${round}-1`, `a-${round}-2`, `b-${round}-2`];
      sent.push(...texts);
      // Sent together, so both gateways read their requests in one poll of the event loop.
      await Promise.all(
        texts.map((text) => (text.startsWith('a') ? adminA : adminB).call('chat.send', { sessionKey: session.key, message: text, idempotencyKey: `inproc-${text}-000` })),
      );
    }
    const fromA = await adminA.call('chat.history', { sessionKey: session.key, limit: 500 });
    const fromB = await adminB.call('chat.history', { sessionKey: session.key, limit: 500 });
    expect(fromA.messages.map((m) => m.text).sort()).toEqual([...sent].sort());
    expect(fromB.messages.map((m) => m.text)).toEqual(fromA.messages.map((m) => m.text));
  });

  it("[C2][D2] a message's seq in a live chat event is its event's, on the gateway that committed it and on the other", { timeout: 120_000 }, async () => {
    const [a, b] = await twoGateways();
    const adminA = await a.connect('admin');
    const adminB = await b.connect('admin');
    const { session } = await adminA.call('sessions.create', { title: 'Numbers' });
    for (const text of ['first', 'second']) {
      const sent = await adminA.call('chat.send', { sessionKey: session.key, message: text, idempotencyKey: `numbers-${text}-000` });
      for (const viewer of [adminA, adminB]) {
        const live = await viewer.waitEvent('chat', (p) => p.message.text === text, 20_000);
        expect(live.seq).toBeGreaterThan(0);
        expect(live.message.seq).toBe(live.seq);
        expect(live.message.seq).toBe(sent.seq);
      }
    }
    const history = await adminB.call('chat.history', { sessionKey: session.key });
    const live = adminA.eventsNamed('chat').map((p) => [p.message.text, p.message.seq]);
    expect(history.messages.map((m) => [m.text, m.seq])).toEqual(live);
  });

  it('[R2][D2] a resume replays up to where its hello stands; what another gateway commits meanwhile arrives once, live', { timeout: 120_000 }, async () => {
    const [a, b] = await twoGateways();
    const adminA = await a.connect('admin');
    const adminB = await b.connect('admin');
    const { session } = await adminA.call('sessions.create', { title: 'Resume' });
    await adminA.call('chat.send', { sessionKey: session.key, message: 'before', idempotencyKey: 'resume-before-000' });
    const cursor = (await adminA.waitEvent('chat', (p) => p.message.text === 'before', 20_000)).seq!;
    await adminA.call('chat.send', { sessionKey: session.key, message: 'missed', idempotencyKey: 'resume-missed-000' });
    // Right after the resuming connection's hello read the newest seq, the other gateway commits a message.
    const store = a.gw.store as unknown as { latestSeq(): Promise<number> };
    const latestSeq = store.latestSeq.bind(store);
    store.latestSeq = async () => {
      store.latestSeq = latestSeq;
      const latest = await latestSeq();
      await adminB.call('chat.send', { sessionKey: session.key, message: 'meanwhile', idempotencyKey: 'resume-meanwhile-000' });
      return latest;
    };
    const resumed = await a.connect('admin', { resume: { cursor } });
    await resumed.waitEvent('chat', (p) => p.message.text === 'meanwhile', 20_000);
    await adminA.call('chat.send', { sessionKey: session.key, message: 'after', idempotencyKey: 'resume-after-000' });
    await resumed.waitEvent('chat', (p) => p.message.text === 'after', 20_000);
    expect(resumed.eventsNamed('chat').map((p) => p.message.text)).toEqual(['missed', 'meanwhile', 'after']);
    const seqs = resumed.seqEvents().map((e) => e.seq!);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('[D2] a question asked on one is answered on the other, in one process', { timeout: 120_000 }, async () => {
    const [a, b] = await twoGateways();
    const agent = await a.connect('agent');
    const adminB = await b.connect('admin');
    for (let i = 0; i < 5; i++) {
      const { id } = await agent.call('question.request', { questions: [item()] });
      await adminB.waitEvent('question.requested', (p) => p.question.id === id, 20_000);
      const [answer, resolved] = await Promise.all([
        agent.call('question.waitAnswer', { id }),
        adminB.call('question.resolve', { id, answers: { env: ['Staging'] } }),
      ]);
      expect(resolved).toEqual({ status: 'answered', answers: { env: ['Staging'] } });
      expect(answer).toEqual({ status: 'answered', answers: { env: ['Staging'] } });
    }
  });

  it('[K1][D2] an agent waiting for a secret on one gateway hears it provided on the other, also while its read of the request is on the way', { timeout: 120_000 }, async () => {
    const [a, b] = await twoGateways();
    const agent = await a.connect('agent');
    const adminA = await a.connect('admin');
    const adminB = await b.connect('admin');
    const first = await agent.call('secret.request', { name: 'FIRST_TOKEN', description: 'For the first' });
    await adminB.waitEvent('secret.requested', (e) => e.request.id === first.id, 20_000);
    const set = secretWaitSet(first.id);
    const waiting = agent.call('secret.waitResult', { id: first.id, timeoutMs: 10_000 });
    await set;
    expect(await adminB.call('secret.provide', { id: first.id, value: 'value-one' })).toEqual({ status: 'stored', name: 'FIRST_TOKEN' });
    expect(await waiting).toEqual({ status: 'stored', name: 'FIRST_TOKEN' });

    // The wait's read says pending, and reaches the gateway only after the other's outcome was heard there.
    const second = await agent.call('secret.request', { name: 'SECOND_TOKEN', description: 'For the second' });
    await adminB.waitEvent('secret.requested', (e) => e.request.id === second.id, 20_000);
    const release = holdReads(a.gw.store, 'getSecretRequest');
    const waitingAgain = agent.call('secret.waitResult', { id: second.id, timeoutMs: 10_000 });
    await adminB.call('secret.provide', { id: second.id, skip: true });
    await adminA.waitEvent('secret.resolved', (e) => e.id === second.id, 20_000);
    release();
    expect(await waitingAgain).toEqual({ status: 'skipped', name: 'SECOND_TOKEN' });
  });

  it('[K1][D2] with one key file, a secret stored through one is read through the other', { timeout: 120_000 }, async () => {
    const [a, b] = await twoGateways();
    const agentA = await a.connect('agent');
    const adminA = await a.connect('admin');
    const { id } = await agentA.call('secret.request', { name: 'SHARED_KEY', description: 'x' });
    await adminA.call('secret.provide', { id, value: 'v-0123456789-abcdef' });
    const agentB = await b.connect('agent');
    expect(await agentB.call('secret.get', { name: 'SHARED_KEY' })).toEqual({ value: 'v-0123456789-abcdef' });
  });
});

describe('one PostgreSQL gateway, requests sent without waiting for answers', () => {
  it('[Q4][Q5][D5] a poll sent right after a cancel reads it cancelled, a get right after an answer reads it answered, and a long wait holds up nothing (units in lanes)', { timeout: 120_000 }, async () => {
    const g = await oneGateway();
    expect((g.gw.store as SharedStore).lanes).toBeGreaterThan(1);
    await readsSeeEarlierChanges(g);
  });
});

describe('two PostgreSQL gateways, one idempotency key', () => {
  it('[A6][D2] the same sessions.create idempotencyKey sent to two gateways at once (a retry racing its original) makes one session', { timeout: 120_000 }, async () => {
    const [a, b] = await twoGateways();
    await oneSessionPerKey(await a.connect('agent'), await b.connect('agent'));
  });

  it('[A6][D5] the same on one gateway, two sockets: the twin is in the same open group', { timeout: 120_000 }, async () => {
    const g = await oneGateway();
    await oneSessionPerKey(await g.connect('agent'), await g.connect('agent'));
  });
});
