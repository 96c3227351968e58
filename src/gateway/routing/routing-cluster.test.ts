import { describe, expect, it } from 'vitest';
import { clusterPerTest } from '../../testing/gateway-cluster.ts';
import { item } from '../../testing/gateway-harness.ts';
import { twoStepConfig } from '../../testing/routing-gateway.ts';

// The shortest wait the config allows (5 s), on real clocks: each gateway is its own process.
const config = twoStepConfig('5s', '5s');

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
});
