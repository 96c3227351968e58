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

type Sent = { text: string; client: pg.Client };

/** What leaves for the database while `on` is set, and on which connection: each `query` of a connection is one round trip. */
function roundTrips() {
  const sent = { on: false, texts: [] as Sent[] };
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    if (sent.on) sent.texts.push({ text: typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text), client: this });
    return query.apply(this, args);
  } as never);
  return sent;
}

it('[D5] a question round trip on a PostgreSQL gateway: three database round trips to ask and three to answer (the audit entry, L1, and its lock in one of each), none to wait; no event or push subscription is read back', { timeout: 120_000 }, async () => {
  gateway = await startTestGateway({ dbPath: schema.url });
  const agent = await gateway.connect('agent');
  const admin = await gateway.connect('admin');
  const { session } = await admin.call('sessions.create', { title: 'Cost' });
  const sent = roundTrips();
  const phases: Record<string, Sent[][]> = { request: [], resolve: [], wait: [] };
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
  const rounds = (phase: string) => phases[phase].slice(3).map((trips) => trips.filter((s) => !BACKGROUND.test(s.text)));
  // A transaction that lands on a connection new to a one-row write it puts off (pool.ts `writeOne`) sends that write's
  // PREPARE as a round trip of its own, once per connection and statement; after that the write rides on the COMMIT.
  const firstPrepare = (s: Sent) => PREPARES_PUT_OFF_WRITE.exec(s.text)?.[1];
  const counts = (phase: string) => rounds(phase).map((trips) => trips.filter((s) => firstPrepare(s) === undefined).length);
  const sentTexts = Object.fromEntries(Object.keys(phases).map((p) => [p, rounds(p).map((trips) => trips.map((s) => s.text.slice(0, 160)))]));
  expect({ request: counts('request'), resolve: counts('resolve'), wait: counts('wait') }, JSON.stringify(sentTexts, null, 1)).toEqual({
    // Two each, and one more for the audit entry written in the same transaction (L1): the log's lock and the statement
    // that takes the next index and writes the entry (and its kept answer) leave together.
    request: Array(10).fill(3),
    resolve: Array(10).fill(3),
    wait: Array(10).fill(0),
  });
  const prepared = Object.keys(phases).flatMap((p) => rounds(p).flat()).flatMap((s) => {
    const statement = firstPrepare(s);
    return statement === undefined ? [] : [{ client: s.client, statement }];
  });
  for (const { client, statement } of prepared) {
    expect(prepared.filter((p) => p.client === client && p.statement === statement), `statement ${statement} prepared twice on one connection`).toHaveLength(1);
  }
  const readBack = Object.values(phases).flatMap((rounds) => rounds.slice(3).flat()).filter((s) => /FROM events|FROM push_subscriptions/.test(s.text));
  expect(readBack.map((s) => s.text)).toEqual([]);
});

/**
 * What the gateway sends on its own clock, whenever it falls (duties.ts, every lease renewal): its heartbeat, its bid for
 * the duties' lease, and, holding them, the sweep for absent askers (shared-presence.ts), which lists the pending
 * questions and reads their askers' presence; and the expiry sweep (question-timers.ts) should a question run out.
 */
const BACKGROUND = /\b(gateways|leases|presence)\b|^SELECT record FROM questions WHERE status = \$1 ORDER BY created_at_ms, n$|\bexpires_at_ms <=|MIN\(expires_at_ms\)/;
/**
 * A round trip that prepares a put-off one-row write on its connection and runs it (pool.ts `writeOne`): it ends with
 * that write, after what the transaction had put off before it. Group 1 is the statement's number.
 */
const PREPARES_PUT_OFF_WRITE = /PREPARE askdock_s(\d+)_(\d+) AS WITH w AS \(.*; EXECUTE askdock_s\1_\2(?:\(.*\))?$/s;
