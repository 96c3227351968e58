/** E2: a repeat round across a shift hand-over, and steps that reach nobody (nobody on call), in a running gateway. */
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../config.ts';
import type { RouteState } from '../../protocol/index.ts';
import type { TestClient } from '../../testing/ws-client.ts';
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

/** An approval asked at `iso` on `weekdays`, and its route as asked. */
async function askApprovalAt(iso: string) {
  const asked = await askAt(iso, weekdays, push);
  const { question } = await asked.admin.waitEvent('question.requested', (p) => p.question.id === asked.id);
  return { ...asked, t0: asked.clock.now(), route: question.route as RouteState };
}

/** Moves to the route's next step once the gateway has armed it; the route that step made. */
async function nextStep(clock: FakeClock, admin: TestClient, id: string, route: RouteState) {
  await clock.timerSet(route.nextAtMs ?? NaN);
  clock.advance((route.nextAtMs ?? NaN) - clock.now());
  return admin.waitEvent('question.routed', (p) => p.id === id && p.route.step === route.step + 1);
}

describe('steps that reach nobody (E2, E3)', () => {
  it('[E2][E3][L1] nobody on call all weekend: the approval is denied when the steps\' waits have passed, not when it is asked; each skip recorded with why', async () => {
    const { clock, admin, agent, id, t0, route } = await askApprovalAt('2026-03-28T12:00:00Z');
    expect(route).toMatchObject({ step: 0, notified: [], nextAtMs: t0 + 5 * MIN, skipped: [{ target: 'schedule:day', reason: 'nobody-on-call', atMs: t0 }] });
    expect((await admin.call('question.get', { id })).question.status).toBe('pending');
    expect((await admin.call('routing.status', {})).questions).toMatchObject([{ id, step: 0, nextAtMs: t0 + 5 * MIN }]);
    const wait = agent.call('question.waitAnswer', { id });
    const second = (await nextStep(clock, admin, id, route)).route;
    expect(second).toMatchObject({ step: 1, nextAtMs: t0 + 10 * MIN });
    const third = (await nextStep(clock, admin, id, second)).route;
    expect(third).toMatchObject({ step: 2, notified: [], nextAtMs: t0 + 15 * MIN });
    await clock.timerSet(t0 + 15 * MIN);
    clock.advance(5 * MIN);
    expect(await wait).toMatchObject({ status: 'expired', reason: 'escalation-exhausted', decision: { behavior: 'deny', decidedBy: 'timeout' } });
    expect(clock.now()).toBe(t0 + 15 * MIN);
    // L1: each step's skip is in the log with its reason, the first one's too.
    const entries = (await auditEntries(admin)).filter((e) => e.questionId === id);
    expect(entries.map((e) => [e.event, e.detail?.skipped])).toEqual([
      ['question.asked', undefined],
      ['question.notified', 'schedule:day (nobody-on-call)'],
      ['question.escalated', 'schedule:day (nobody-on-call)'],
      ['question.escalated', 'schedule:day (nobody-on-call)'],
      ['question.expired', undefined],
    ]);
  });

  it('[E2] asked just before the shift begins: a later step reaches Ana once she is on call, and she may answer', async () => {
    const { clock, admin, id, t0, route, gateway } = await askApprovalAt('2026-03-25T08:52:00Z');
    const ana = await connectPerson(gateway, 'ana');
    const second = await nextStep(clock, admin, id, route);
    expect([second.route.step, second.notify]).toEqual([1, undefined]);
    const third = await nextStep(clock, admin, id, second.route);
    // 09:02: Ana's day has begun.
    expect(clock.now()).toBe(t0 + 10 * MIN);
    expect([third.route.step, third.notify, third.route.eligible]).toEqual([2, ['ana'], ['ana']]);
    expect(await ana.call('question.resolve', { id, answers: { approval: ['Allow'] } })).toMatchObject({ status: 'answered' });
  });
});
