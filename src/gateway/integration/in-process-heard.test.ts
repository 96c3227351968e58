import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { item } from '../../testing/gateway-harness.ts';
import { holdReads, inProcessGateways } from '../../testing/in-process-gateways.ts';

// D5: two gateways in one process, each deciding from the events it heard what it would otherwise read (lanes, outcomes,
// pending counts), and waiting on the other's locks without losing a count.
const { two: twoGateways, schemaUrl } = inProcessGateways();

describe('two PostgreSQL gateways in one process', () => {
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
    const watch = new pg.Client({ connectionString: schemaUrl() });
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
});
