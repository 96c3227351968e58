import { describe, expect, it } from 'vitest';
import { clusterPerTest } from '../../testing/gateway-cluster.ts';
import { item } from '../../testing/gateway-harness.ts';
import { twoStepConfig } from '../../testing/routing-gateway.ts';
import type { GatewayConfig } from '../config.ts';

// The shortest wait the config allows (5 s), on real clocks: each gateway is its own process.
const config = twoStepConfig('5s', '5s');
// The same escalation for secret requests (K1).
const secretConfig: GatewayConfig = {
  ...config,
  routing: {
    groups: { ops: { members: ['bo', 'cy'] } },
    escalations: { team: { steps: [{ notify: ['identity:ana'], wait: '5s' }, { notify: ['group:ops'], wait: '5s' }], exhausted: 'keep' } },
    routes: [{ match: { kind: ['secret'] }, escalation: 'team' }],
  },
};

describe('escalation on several gateways (E2, D3)', () => {
  const clusters = clusterPerTest('routing');

  it('[E2][D3] on two gateways of one database each step runs once, whichever gateway the question was asked through', { timeout: 120_000 }, async () => {
    const cluster = await clusters.start(2, { config });
    const watchers = [await cluster.connect(0, 'admin'), await cluster.connect(1, 'admin')];
    const agent = await cluster.connect(1, 'agent');
    const { session } = await watchers[0].call('sessions.create', { title: 'Shared' });
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()], mode: 'async', timeoutMs: 3_600_000 });
    const stepsOf = (w: (typeof watchers)[number]) => w.eventsNamed('question.routed').filter((p) => p.id === id).map((p) => p.route.step);
    // The second step ran at 5 s, and at 10 s the steps ran out (kept for everyone notified): two changes of the route ...
    for (const w of watchers) await expect.poll(() => stepsOf(w), { timeout: 60_000 }).toEqual([1, 1]);
    // ... and each once: the last step leaves no deadline, so nothing more can come.
    const { question } = await watchers[1].call('question.get', { id });
    expect(question.status).toBe('pending');
    expect(question.route).toMatchObject({ step: 1, notified: ['ana', 'bo', 'cy'] });
    expect(question.route?.nextAtMs).toBeUndefined();
    for (const w of watchers) expect(stepsOf(w)).toEqual([1, 1]);
  });

  it('[E2][D3][K1] a routed secret request steps once on two gateways of one database too', { timeout: 120_000 }, async () => {
    const cluster = await clusters.start(2, { config: secretConfig });
    const watchers = [await cluster.connect(0, 'admin'), await cluster.connect(1, 'admin')];
    const agent = await cluster.connect(1, 'agent');
    const { session } = await watchers[0].call('sessions.create', { title: 'Shared' });
    const { id } = await agent.call('secret.request', { name: 'DEPLOY_TOKEN', description: 'To deploy', sessionKey: session.key, timeoutMs: 3_600_000 });
    const stepsOf = (w: (typeof watchers)[number]) => w.eventsNamed('secret.routed').filter((p) => p.id === id).map((p) => p.route.step);
    for (const w of watchers) await expect.poll(() => stepsOf(w), { timeout: 60_000 }).toEqual([1, 1]);
    const request = (await watchers[1].call('secret.list', {})).requests.find((r) => r.id === id);
    expect(request).toMatchObject({ status: 'pending', route: { step: 1, notified: ['ana', 'bo', 'cy'] } });
    expect(request?.route?.nextAtMs).toBeUndefined();
    for (const w of watchers) expect(stepsOf(w)).toEqual([1, 1]);
  });
});
