import pg from 'pg';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { freshSchema, type TestSchema } from '../../testing/postgres.ts';

let schema: TestSchema;
let gateway: TestGateway | undefined;
beforeEach(async () => {
  schema = await freshSchema('cost');
});
afterEach(async () => {
  vi.restoreAllMocks();
  await gateway?.close();
  gateway = undefined;
  await schema.drop();
});

/** The texts of what leaves for the database while `on` is set: each `query` of a connection is one round trip. */
function roundTrips() {
  const sent = { on: false, texts: [] as string[] };
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    if (sent.on) sent.texts.push(typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text));
    return query.apply(this, args);
  } as never);
  return sent;
}

it('[D5] a question round trip on a PostgreSQL gateway: two database round trips to ask, two to answer, none to wait; no event or push subscription is read back', { timeout: 120_000 }, async () => {
  gateway = await startTestGateway({ dbPath: schema.url });
  const agent = await gateway.connect('agent');
  const admin = await gateway.connect('admin');
  const { session } = await admin.call('sessions.create', { title: 'Cost' });
  const sent = roundTrips();
  const phases: Record<string, string[][]> = { request: [], resolve: [], wait: [] };
  const measure = async <T>(phase: string, fn: () => Promise<T>): Promise<T> => {
    sent.texts = [];
    sent.on = true;
    const r = await fn();
    sent.on = false;
    phases[phase].push(sent.texts);
    return r;
  };
  for (let round = 0; round < 13; round++) {
    admin.events.length = 0;
    const { id } = await measure('request', () => agent.call('question.request', { sessionKey: session.key, questions: [item()] }));
    // The session's count, worked out from what the ask read before its insert, is what the database holds.
    const asked = await admin.waitEvent('session.updated', (e) => e.session.key === session.key, 20_000);
    expect(asked.session.pendingQuestions).toBe(1);
    await measure('resolve', () => admin.call('question.resolve', { id, answers: { env: ['Staging'] } }));
    const answered = await admin.waitEvent('session.updated', (e) => e.session.key === session.key && e.session.pendingQuestions !== 1, 20_000);
    expect(answered.session.pendingQuestions).toBe(0);
    const listed = (await admin.call('sessions.list', {})).sessions.find((s) => s.key === session.key);
    expect(listed?.pendingQuestions).toBe(0);
    const answer = await measure('wait', () => agent.call('question.waitAnswer', { id, timeoutMs: 10_000 }));
    expect(answer).toMatchObject({ status: 'answered', answers: { env: ['Staging'] } });
  }
  // The first rounds prepare the statements on the connections they use (and fill the push subscriptions' cache).
  const counts = (phase: string) => phases[phase].slice(3).map((texts) => texts.filter((t) => !BACKGROUND.test(t)).length);
  expect({ request: counts('request'), resolve: counts('resolve'), wait: counts('wait') }).toEqual({
    request: Array(10).fill(2),
    resolve: Array(10).fill(2),
    wait: Array(10).fill(0),
  });
  const readBack = Object.values(phases).flatMap((rounds) => rounds.slice(3).flat()).filter((t) => /FROM events|FROM push_subscriptions/.test(t));
  expect(readBack).toEqual([]);
});

/** What the gateway's duties send on their own clock (heartbeats, leases, presence), whenever it falls. */
const BACKGROUND = /\b(gateways|leases|presence)\b/;
