import { afterEach, describe, expect, it } from 'vitest';
import { clusterPerTest } from '../../testing/gateway-cluster.ts';
import { item, testConfig } from '../../testing/gateway-harness.ts';
import { FakePushService } from '../../testing/fake-push-service.ts';

let fake: FakePushService | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('"<name> is on it" with several gateways (E4, D2)', () => {
  const clusters = clusterPerTest('pushack');
  const config = {
    ...testConfig,
    routing: {
      escalations: { team: { steps: [{ notify: ['identity:admin'], wait: '5m' }], exhausted: 'keep' as const } },
      routes: [{ match: { kind: ['question' as const] }, escalation: 'team' }],
    },
  };

  it('[E4][D2] an acknowledgement on one gateway is said once: a hand-off on another gateway says nothing again', { timeout: 120_000 }, async () => {
    const pushFake = (fake = await FakePushService.start());
    const cluster = await clusters.start(2, { config: { ...config, push: { allowedEndpoints: [pushFake.origin] } } });
    const [admin0, admin1, agent1] = [await cluster.connect(0, 'admin'), await cluster.connect(1, 'admin'), await cluster.connect(1, 'agent')];
    await admin0.call('push.subscribe', { subscription: pushFake.subscriber('phone').toJSON() });
    const { session } = await admin1.call('sessions.create', { title: 'Shared' });
    const { id } = await agent1.call('question.request', { sessionKey: session.key, questions: [item()], timeoutMs: 3_600_000 });
    const types = () => pushFake.received.map((r) => (r.payload as { type: string }).type);
    await expect.poll(types, { timeout: 20_000 }).toEqual(['question']);
    await admin0.call('question.ack', { id });
    await expect.poll(types, { timeout: 20_000 }).toEqual(['question', 'taken']);
    await admin1.call('question.handoff', { id, to: 'identity:admin', note: 'still mine' });
    await admin1.call('question.resolve', { id, answers: { env: ['Staging'] } });
    await expect.poll(() => types().includes('close'), { timeout: 20_000 }).toBe(true);
    expect(types()).toEqual(['question', 'taken', 'close']);
  });
});
