import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { item, tokenOf, type Who } from '../../testing/gateway-harness.ts';
import { freshSchema, type TestSchema } from '../../testing/postgres.ts';
import { RestartableGateway } from '../../testing/restartable-gateway.ts';
import { personToken, twoStepConfig, type Person } from '../../testing/routing-gateway.ts';
import { TestClient } from '../../testing/ws-client.ts';
import { RENEW_EVERY_MS } from '../infra/duties.ts';

// Ana first, for 15 s of real time (each gateway is its own process); then Bo and Cy, for an hour.
const config = twoStepConfig('15s', '1h');

let schema: TestSchema | undefined;
let gateways: RestartableGateway[] = [];
let clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients) c.close();
  for (const g of gateways.reverse()) await g.close();
  await schema?.drop();
  schema = undefined;
  gateways = [];
  clients = [];
});

async function connect(g: RestartableGateway, who: Who | Person): Promise<TestClient> {
  const c = await TestClient.open(g.child!.wsUrl);
  clients.push(c);
  const token = (['ana', 'bo', 'cy'] as string[]).includes(who) ? personToken(who as Person) : tokenOf(who as Who);
  const res = await c.connect(token);
  if (!res.ok) throw new Error(`connect as ${who} failed: ${JSON.stringify(res.error)}`);
  return c;
}

/** What the database holds of the question: its route, and how many `question.routed` events were committed for it. */
async function stored(url: string, id: string): Promise<{ step: number; notified: string[]; routedEvents: number }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const record = JSON.parse((await c.query(`SELECT record FROM questions WHERE id = $1`, [id])).rows[0].record as string);
    const events = await c.query(`SELECT COUNT(*) AS n FROM events WHERE event = 'question.routed' AND payload::json->>'id' = $1`, [id]);
    return { step: record.route.step, notified: record.route.notified, routedEvents: Number(events.rows[0].n) };
  } finally {
    await c.end();
  }
}

/**
 * Waits until the duty lease was taken `n` more times (by whichever gateway): the holder takes it, then runs the
 * duties, then takes it again, so after two takes at least one whole run of the duties began after this call.
 */
async function dutyRuns(url: string, n: number): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const until = async () => Number((await c.query(`SELECT until_ms FROM leases WHERE name = 'duties'`)).rows[0]?.until_ms ?? 0);
    const seen = new Set([await until()]);
    await expect.poll(async () => seen.add(await until()).size, { timeout: 60_000, interval: RENEW_EVERY_MS / 5 }).toBeGreaterThan(n);
  } finally {
    await c.end();
  }
}

describe('escalation across a SIGKILL on PostgreSQL (E2, E11, D3)', () => {
  it(
    '[E2][E11][D3] a gateway killed before a step\'s deadline: after it passed, the step runs once on start, with two gateways on the database',
    { timeout: 240_000 },
    async () => {
      schema = await freshSchema('reroute');
      const first = await RestartableGateway.start(config, { db: schema.url });
      gateways.push(first);
      const admin = await connect(first, 'admin');
      const agent = await connect(first, 'agent');
      const { session } = await admin.call('sessions.create', { title: 'Killed' });
      const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()], mode: 'async', timeoutMs: 3_600_000 });
      const { question } = await admin.call('question.get', { id });
      const deadline = question.route?.nextAtMs as number;
      expect(question.route).toMatchObject({ step: 0, notified: ['ana'] });

      await first.kill();
      // Killed before the deadline: nothing stepped yet.
      expect(await stored(schema.url, id)).toEqual({ step: 0, notified: ['ana'], routedEvents: 0 });
      await expect.poll(() => Date.now() > deadline, { timeout: 60_000, interval: 250 }).toBe(true);

      // Both start after the deadline passed, side by side on the one database.
      const [second] = await Promise.all([RestartableGateway.start(config, { dir: first.dir, db: schema.url }), first.start()]);
      gateways.push(second);
      await expect.poll(() => stored(schema!.url, id), { timeout: 60_000, interval: 250 }).toEqual({ step: 1, notified: ['ana', 'bo', 'cy'], routedEvents: 1 });

      // The group was notified: Bo may answer now, through either gateway, and Ana sees it stepped.
      const ana = await connect(first, 'ana');
      expect((await ana.call('question.get', { id })).question.route).toMatchObject({ step: 1, notified: ['ana', 'bo', 'cy'] });
      // Once: whichever gateway holds the duties, and after they ran again (and could have passed between them), still one step.
      await dutyRuns(schema.url, 3);
      expect(await stored(schema.url, id)).toEqual({ step: 1, notified: ['ana', 'bo', 'cy'], routedEvents: 1 });
      const bo = await connect(second, 'bo');
      expect(await bo.call('question.resolve', { id, answers: { env: ['Staging'] } })).toMatchObject({ status: 'answered' });
    },
  );
});
