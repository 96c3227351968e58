import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../config.ts';
import { item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { routingConfig } from '../../testing/routing-gateway.ts';

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

describe('a repeat round across a shift hand-over (E2)', () => {
  it('[E2] each step notifies the people its round has not notified yet, as the schedule named them when each step ran', async () => {
    const clock = new FakeClock(Date.parse('2026-03-26T08:48:00Z'));
    t = await startTestGateway({ config, clock });
    const admin = await t.connect('admin');
    const agent = await t.connect('agent', { clientId: 'agent-client' });
    const { session } = await admin.call('sessions.create', { title: 'Deploys' });
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()], timeoutMs: 3_600_000 });
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
