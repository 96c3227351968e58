import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { item, startTestGateway, testConfig, type TestGateway } from '../../testing/gateway-harness.ts';
import { freshSchema, type TestSchema } from '../../testing/postgres.ts';
import { oneSessionPerKey, readsSeeEarlierChanges } from '../../testing/concurrent-requests.ts';
import type { GatewayConfig } from '../config.ts';
import { SecretWaiters } from '../secrets/secret-waiters.ts';
import type { SharedStore } from '../store/postgres/store.ts';

// Two gateways in ONE process on one database: each keeps its turn's transaction open across callbacks while the
// thread waits on every statement, so without taking turns the second one's write waits for a lock the first can
// never release (until PostgreSQL's lock timeout fails it).
let schema: TestSchema;
let keyDir: string;
const running: TestGateway[] = [];

beforeEach(async () => {
  schema = await freshSchema('inproc');
  keyDir = mkdtempSync(join(tmpdir(), 'askdock-inproc-key-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const g of running.splice(0)) await g.close();
  await schema.drop();
  rmSync(keyDir, { recursive: true, force: true });
});

const config: GatewayConfig = {
  identities: testConfig.identities.map((i) => (i.id === 'agent' ? { ...i, scopes: ['agent.run', 'agent.secrets'] } : i)),
};

async function twoGateways(): Promise<[TestGateway, TestGateway]> {
  const a = await startTestGateway({ dbPath: schema.url, config, secretKeyFile: join(keyDir, 'secrets.key') });
  running.push(a);
  const b = await startTestGateway({ dbPath: schema.url, config, secretKeyFile: join(keyDir, 'secrets.key') });
  running.push(b);
  return [a, b];
}

/** Lets the store's `method` read as usual but hands each answer back only once the returned release is called. */
function holdReads(store: object, method: 'getQuestion' | 'getSecretRequest'): () => void {
  const reads = store as Record<typeof method, (id: string) => Promise<unknown>>;
  const read = reads[method].bind(store);
  let release!: () => void;
  const gate = new Promise<void>((ok) => (release = ok));
  reads[method] = async (id) => {
    const answer = await read(id);
    await gate;
    return answer;
  };
  return release;
}

/** Settles once a wait for secret request `id` is set on a gateway of this process: from then on only a heard outcome ends it. */
function secretWaitSet(id: string): Promise<void> {
  const wait = SecretWaiters.prototype.wait;
  return new Promise((ok) => {
    vi.spyOn(SecretWaiters.prototype, 'wait').mockImplementation(function (this: SecretWaiters, r, timeoutMs, cancellation) {
      const answer = wait.call(this, r, timeoutMs, cancellation);
      if (r.id === id && answer instanceof Promise) ok();
      return answer;
    });
  });
}

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

  it("[D5] a resolve finds its question's lane from the question.requested it heard, without reading it first", { timeout: 120_000 }, async () => {
    const [a, b] = await twoGateways();
    const agent = await a.connect('agent');
    const adminB = await b.connect('admin');
    const { session } = await adminB.call('sessions.create', { title: 'Lanes' });
    const store = b.gw.store as unknown as { questionSession(id: string): Promise<string | null> };
    const read = store.questionSession.bind(store);
    const readFor: string[] = [];
    store.questionSession = (id) => (readFor.push(id), read(id));
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    await adminB.waitEvent('question.requested', (p) => p.question.id === id, 20_000);
    const [answer] = await Promise.all([agent.call('question.waitAnswer', { id }), adminB.call('question.resolve', { id, answers: { env: ['Staging'] } })]);
    expect(answer).toEqual({ status: 'answered', answers: { env: ['Staging'] } });
    expect(readFor).toEqual([]);
    // Heard resolved too: a repeat finds its lane the same way, and is told the question is over.
    const again = await adminB.request('question.resolve', { id, answers: { env: ['Production'] } });
    expect(again.ok).toBe(false);
    expect(readFor).toEqual([]);
    // One it never heard of is read ahead.
    expect((await adminB.request('question.resolve', { id: 'q_never_asked', answers: { env: ['Production'] } })).ok).toBe(false);
    expect(readFor).toEqual(['q_never_asked']);
  });

  it('[D5][Q4] an asker waiting on one gateway gets the outcome another committed from the events it heard, without reading the question', { timeout: 120_000 }, async () => {
    const [a, b] = await twoGateways();
    const agent = await a.connect('agent');
    const adminB = await b.connect('admin');
    const store = a.gw.store as unknown as { getQuestion(id: string): Promise<unknown> };
    const read = store.getQuestion.bind(store);
    const reads: string[] = [];
    store.getQuestion = (id) => (reads.push(id), read(id));
    const { id } = await agent.call('question.request', { questions: [item()] });
    reads.length = 0;
    // Heard pending: the wait starts without a read, and the outcome wakes it (or is heard first and answers it).
    const waiting = agent.call('question.waitAnswer', { id });
    await adminB.call('question.resolve', { id, answers: { env: ['Staging'] } });
    expect(await waiting).toEqual({ status: 'answered', answers: { env: ['Staging'] } });
    // Heard answered: a later wait too.
    expect(await agent.call('question.waitAnswer', { id })).toEqual({ status: 'answered', answers: { env: ['Staging'] } });
    expect(reads).toEqual([]);
    // Only a wait that asks for the resolutionId (which the event does not tell) reads it.
    expect(await agent.call('question.waitAnswer', { id, includeResolutionId: true })).toMatchObject({ status: 'answered' });
    expect(reads).toEqual([id]);
    // And a wait of no time, a poll, which agrees with the database even before this gateway heard of a change.
    expect(await agent.call('question.waitAnswer', { id, timeoutMs: 0 })).toEqual({ status: 'answered', answers: { env: ['Staging'] } });
    expect(reads).toEqual([id, id]);
    // A3: what was heard is checked as a read would be: no other identity may wait for it.
    for (const who of ['agent2', 'guest'] as const) {
      const other = await (await a.connect(who)).request('question.waitAnswer', { id });
      expect(other.ok).toBe(false);
      expect(JSON.stringify(other)).not.toContain('Staging');
    }
  });

  /**
   * Gateway b's unit in a session holds the session's lock at its `held` event while gateway a asks there (`mode`) and
   * waits for that lock; then both finish. The counts of session.updated an admin on a heard, in order.
   */
  async function askWhileLocked(held: 'question.requested' | 'question.resolved', mode: 'async' | 'blocking') {
    const [a, b] = await twoGateways();
    const [agentA, agentB, adminA, adminB] = [await a.connect('agent'), await b.connect('agent'), await a.connect('admin'), await b.connect('admin')];
    const { session } = await adminA.call('sessions.create', { title: 'Count' });
    const store = b.gw.store as unknown as { appendEvent: (e: { event: string }, json?: string) => Promise<number> };
    const append = store.appendEvent.bind(store);
    let release!: () => void;
    const gate = new Promise<void>((ok) => (release = ok));
    let reached!: () => void;
    const holding = new Promise<void>((ok) => (reached = ok));
    store.appendEvent = async (e, json) => {
      if (e.event === held) (reached(), await gate);
      return append(e, json);
    };
    const first = held === 'question.resolved' ? await agentB.call('question.request', { sessionKey: session.key, mode: 'async', questions: [item()] }) : null;
    const onB = first ? adminB.call('question.resolve', { id: first.id, answers: { env: ['Staging'] } }) : agentB.call('question.request', { sessionKey: session.key, mode: 'async', questions: [item()] });
    await holding;
    adminA.events.length = 0;
    const onA = agentA.call('question.request', { sessionKey: session.key, mode, questions: [item()] });
    // a's statement waits for b's lock.
    const watch = new pg.Client({ connectionString: schema.url });
    await watch.connect();
    const waiting = async () => Number((await watch.query(`SELECT COUNT(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name = 'askdock' AND datname = current_database()`)).rows[0].n);
    await expect.poll(waiting, { timeout: 20_000 }).toBeGreaterThan(0);
    await watch.end();
    release();
    await Promise.all([onA, onB]);
    const stored = (await adminA.call('sessions.list', {})).sessions.find((s) => s.key === session.key)?.pendingQuestions;
    await expect.poll(() => adminA.eventsNamed('session.updated').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    return { stored, heard: adminA.eventsNamed('session.updated').map((p) => p.session.pendingQuestions) };
  }

  it('[Q10][D5] asks on two gateways in one session at once: the last session.updated tells the count stored', { timeout: 120_000 }, async () => {
    const { stored, heard } = await askWhileLocked('question.requested', 'async');
    expect(stored).toBe(2);
    expect(heard.at(-1)).toBe(2);
  });

  it('[Q10][D5] an ask on one gateway while the other resolves in the same session: the last session.updated tells the count stored', { timeout: 120_000 }, async () => {
    const { stored, heard } = await askWhileLocked('question.resolved', 'blocking');
    expect(stored).toBe(1);
    expect(heard.at(-1)).toBe(1);
  });

  it("[D5][A3] a session's count as each viewer may see it comes with the event from the gateway that changed it: the other reads no pending questions to fan it out", { timeout: 120_000 }, async () => {
    const [a, b] = await twoGateways();
    const agent = await a.connect('agent');
    const guest = await b.connect('guest');
    const admin = await b.connect('admin');
    const sessionKey = (await guest.call('sessions.create', { title: 'guest' })).session.key;
    await agent.call('agent.subscribe', { sessionKey });
    const store = b.gw.store as unknown as { listQuestions(filter: { sessionKey?: string }): Promise<unknown[]> };
    const list = store.listQuestions.bind(store);
    const reads: unknown[] = [];
    store.listQuestions = (filter) => (filter.sessionKey === sessionKey && reads.push(filter), list(filter));
    const counted = (who: typeof guest, n?: number) =>
      who.waitEvent('session.updated', (e) => e.session.key === sessionKey && (n === undefined || e.session.pendingQuestions === n), 20_000).then((e) => e.session.pendingQuestions);
    const open = await agent.call('question.request', { sessionKey, mode: 'async', questions: [item()] });
    await counted(guest, 1);
    // A privileged question: the guest may not see it, nor hear that the count changed (A3/A4).
    await agent.call('question.request', { sessionKey, mode: 'async', privileged: true, questions: [item()] });
    await counted(admin, 2);
    guest.events.length = 0;
    admin.events.length = 0;
    await agent.call('question.resolve', { id: open.id, cancel: true });
    expect(await counted(guest)).toBe(0);
    expect(await counted(admin)).toBe(1);
    expect(reads).toEqual([]);
  });

  it('[D5][Q4] an outcome heard while the waiting agent\'s read of its question is on the way is not lost', { timeout: 120_000 }, async () => {
    const [a, b] = await twoGateways();
    const agent = await a.connect('agent');
    const adminA = await a.connect('admin');
    const adminB = await b.connect('admin');
    const { id } = await agent.call('question.request', { questions: [item()] });
    await adminB.waitEvent('question.requested', (e) => e.question.id === id, 20_000);
    // The wait's read of the question answers "pending", and its answer reaches the gateway only after the resolve
    // made on the other gateway was heard there.
    const release = holdReads(a.gw.store, 'getQuestion');
    const waiting = agent.call('question.waitAnswer', { id, timeoutMs: 10_000 });
    await adminB.call('question.resolve', { id, answers: { env: ['Staging'] } });
    await adminA.waitEvent('question.resolved', (e) => e.id === id, 20_000);
    release();
    expect(await waiting).toEqual({ status: 'answered', answers: { env: ['Staging'] } });
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
    const g = await startTestGateway({ dbPath: schema.url, config, secretKeyFile: join(keyDir, 'secrets.key') });
    running.push(g);
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
    const g = await startTestGateway({ dbPath: schema.url, config, secretKeyFile: join(keyDir, 'secrets.key') });
    running.push(g);
    await oneSessionPerKey(await g.connect('agent'), await g.connect('agent'));
  });
});
