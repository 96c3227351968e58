/** E2: a repeat round across a shift hand-over, and steps that reach nobody (nobody on call), in a running gateway. */
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../config.ts';
import { item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { connectPerson, routingConfig } from '../../testing/routing-gateway.ts';
import { auditEntries } from '../../testing/audit-entries.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const MIN = 60_000;

/** Whoever is on call (daily shifts at 09:00Z: ana on Wednesday 2026-03-25, bo on Thursday), then Bo; the steps run twice. */
const config: GatewayConfig = {
  ...routingConfig,
  routing: {
    schedules: { primary: { timezone: 'UTC', layers: [{ members: ['ana', 'bo'], rotation: 'daily', handoff: '09:00', start: '2026-03-23T09:00' }] } },
    escalations: { team: { steps: [{ notify: ['schedule:primary'], wait: '5m' }, { notify: ['identity:bo'], wait: '5m' }], repeat: 1, exhausted: 'keep' } },
    routes: [{ match: { kind: ['question'] }, escalation: 'team' }],
  },
};

/** A gateway on `on` at `iso` (its clock fixed there), and a question (or, with `approval`, an approval) an agent asked then. */
async function askAt(iso: string, on = config, approval?: { tool: string; input: Record<string, unknown> }) {
  const clock = new FakeClock(Date.parse(iso));
  t = await startTestGateway({ config: on, clock });
  const admin = await t.connect('admin');
  const agent = await t.connect('agent', { clientId: 'agent-client' });
  const { session } = await admin.call('sessions.create', { title: 'Deploys' });
  const { id } = await agent.call('question.request', { sessionKey: session.key, ...(approval ? { approval } : { questions: [item()] }), timeoutMs: 3_600_000 });
  return { clock, admin, agent, id, gateway: t };
}

describe('a repeat round across a shift hand-over (E2)', () => {
  it('[E2] each step notifies the people its round has not notified yet, as the schedule named them when each step ran', async () => {
    const { clock, admin, id } = await askAt('2026-03-26T08:48:00Z');
    let route = (await admin.waitEvent('question.requested', (p) => p.question.id === id)).question.route;
    const notified = [route?.notified];
    for (let step = 1; step <= 3; step++) {
      await clock.timerSet(route?.nextAtMs ?? NaN);
      clock.advance(5 * MIN);
      const routed = await admin.waitEvent('question.routed', (p) => p.id === id && p.route.step === step);
      notified.push(routed.notify ?? []);
      route = routed.route;
    }
    // The repeat starts at 08:58 with ana on call; at 09:03 Bo's shift has begun, and the round has not notified Bo yet.
    expect(notified).toEqual([['ana'], ['bo'], ['ana'], ['bo']]);
  });
});

describe('who a question waits for, across a shift hand-over (E9, E12)', () => {
  it('[E9][E12] routing.status names whom the running step notified (Ana), not who took the shift over since (Bo)', async () => {
    const { clock, admin, id, gateway } = await askAt('2026-03-26T08:58:00Z');
    await admin.waitEvent('question.requested', (p) => p.question.id === id);
    const ana = await connectPerson(gateway, 'ana');
    clock.advance(2 * MIN);
    const status = await ana.call('routing.status', {});
    expect(status.schedules.find((s) => s.name === 'primary')?.now).toBe('bo');
    expect(status.questions.find((q) => q.id === id)).toMatchObject({ step: 0, waitsFor: ['Ana'], next: ['Bo'] });
  });
});

/** Approvals go to whoever is on call (Ana, weekdays 09:00-18:00 UTC), three times, 5 minutes each; denied when they run out. */
const weekdays: GatewayConfig = {
  ...routingConfig,
  routing: {
    schedules: { day: { timezone: 'UTC', layers: [{ members: ['ana'], rotation: 'daily', handoff: '09:00', start: '2026-03-23T00:00', restrict: ['mon-fri 09:00-18:00'] }] } },
    escalations: { oncall: { steps: [{ notify: ['schedule:day'], wait: '5m' }], repeat: 2, exhausted: 'deny' } },
    routes: [{ match: { kind: ['approval'] }, escalation: 'oncall' }],
  },
};

const push = { tool: 'Bash', input: { command: 'git push origin main' } };

describe('steps that reach nobody (E2, E3)', () => {
  it('[E2][E3][L1] nobody on call all weekend: every step is skipped at once, the approval is denied then (exhausted: deny), each skip recorded with why', async () => {
    const { clock, admin, agent, id } = await askAt('2026-03-28T12:00:00Z', weekdays, push);
    const t0 = Date.parse('2026-03-28T12:00:00Z');
    // Every step reaches nobody: the route runs out at the instant it is asked (its timer due now, not 15 minutes on).
    expect((await admin.call('question.get', { id })).question.route).toMatchObject({ step: 2, notified: [], nextAtMs: t0 });
    await clock.timerSet(t0);
    clock.advance(0);
    expect(await agent.call('question.waitAnswer', { id })).toMatchObject({ status: 'expired', reason: 'escalation-exhausted', decision: { behavior: 'deny', decidedBy: 'timeout' } });
    expect(clock.now()).toBe(t0);
    expect((await admin.call('routing.status', {})).questions.find((q) => q.id === id)).toBeUndefined();
    const entries = (await auditEntries(admin)).filter((e) => e.questionId === id);
    // L1: the three steps' skips are in the log with why, in the entry that says whom the question notified (nobody).
    expect(entries.map((e) => [e.event, e.detail?.skipped])).toEqual([
      ['question.asked', undefined],
      ['question.notified', 'schedule:day (nobody-on-call), schedule:day (nobody-on-call), schedule:day (nobody-on-call)'],
      ['question.expired', undefined],
    ]);
  });
});
