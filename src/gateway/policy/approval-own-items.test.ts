/** G11: an approval asked with the agent's own items (its own ids) is decided like the gateway's own approval item. */
import { afterEach, describe, expect, it } from 'vitest';
import { clusterPerTest } from '../../testing/gateway-cluster.ts';
import { item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { policyConfig } from '../../testing/policy-config.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const push = { tool: 'Bash', input: { command: 'git push origin main' } };
const own = item({ id: 'deploy', header: 'Push', question: 'Push main to origin?', options: [{ label: 'Allow' }, { label: 'Deny' }] });

it.each([
  ['waiting when it is answered', false],
  ['asking after it was answered', true],
] as const)('[G11][Q2] an approval with the agent\'s own items: waitAnswer carries the person\'s decision (%s)', async (_name, after) => {
  t = await startTestGateway({ config: policyConfig });
  const admin = await t.connect('admin');
  const agent = await t.connect('agent', { clientId: 'agent-client' });
  const { session } = await admin.call('sessions.create', { title: 'Work' });
  const res = await agent.call('question.request', { sessionKey: session.key, approval: push, questions: [own] });
  await admin.waitEvent('question.requested', (p) => p.question.id === res.id);
  const waiting = after ? undefined : agent.call('question.waitAnswer', { id: res.id });
  await admin.call('question.resolve', { id: res.id, answers: { deploy: ['Deny'] } });
  const waited = await (waiting ?? agent.call('question.waitAnswer', { id: res.id, timeoutMs: 0 }));
  expect(waited).toMatchObject({ status: 'answered', answers: { deploy: ['Deny'] } });
  expect(waited.decision).toEqual({ behavior: 'deny', decidedBy: 'person', rules: ['push'], resolvedBy: { identity: 'admin', surface: 'cli', atMs: expect.any(Number) } });
});

describe('on two gateways of one PostgreSQL database (D2)', () => {
  const clusters = clusterPerTest('ownitems');

  const ways: [string, { answers: Record<string, string[]> } | { skip: true }][] = [
    ['answered Deny', { answers: { deploy: ['Deny'] } }],
    ['skipped', { skip: true }],
  ];
  it.each(ways)('[G11][D2] asked on one, waited for on the other, %s: the wait carries the person\'s decision', { timeout: 60_000 }, async (_name, resolve) => {
    const decision = { behavior: 'deny' };
    const cluster = await clusters.start(2, { config: policyConfig });
    const admin = await cluster.connect(0, 'admin');
    const asker = await cluster.connect(0, 'agent');
    const { session } = await admin.call('sessions.create', { title: 'Work' });
    const res = await asker.call('question.request', { sessionKey: session.key, approval: push, questions: [own] });
    const waiter = await cluster.connect(1, 'agent');
    const waiting = waiter.call('question.waitAnswer', { id: res.id, timeoutMs: 30_000 });
    await admin.waitEvent('question.requested', (p) => p.question.id === res.id);
    await admin.call('question.resolve', { id: res.id, ...resolve });
    expect((await waiting).decision).toMatchObject({ ...decision, decidedBy: 'person', rules: ['push'] });
    // Heard of before the wait (the other gateway told it): the same.
    expect((await waiter.call('question.waitAnswer', { id: res.id, timeoutMs: 30_000 })).decision).toMatchObject(decision);
  });
});
