import { describe, expect, it } from 'vitest';
import { clusterPerTest } from '../../testing/gateway-cluster.ts';
import { policyConfig } from '../../testing/policy-config.ts';

const clusters = clusterPerTest('grants');

const build = { tool: 'Bash', input: { command: 'npm run build' } };

describe('G5 grants on several gateways of one PostgreSQL database', () => {
  it('[G5][D2] a grant made through one gateway applies on the next request through another, and its revoke too', { timeout: 120_000 }, async () => {
    const c = await clusters.start(2, { config: policyConfig });
    const adminA = await c.connect(0, 'admin');
    const agentA = await c.connect(0, 'agent');
    const { session } = await adminA.call('sessions.create', { title: 'Two gateways' });
    const first = await agentA.call('question.request', { sessionKey: session.key, approval: build });
    await adminA.call('question.resolve', { id: first.id, answers: { approval: ['Always allow in this session'] } });
    const [grant] = (await adminA.call('policy.get', {})).grants;

    const agentB = await c.connect(1, 'agent');
    const onB = await agentB.call('question.request', { sessionKey: session.key, approval: build });
    expect(onB.decision).toEqual({ behavior: 'allow', decidedBy: 'grant', rules: [grant.id], grantId: grant.id });
    // Admins on the other gateway hear of grants too.
    const adminB = await c.connect(1, 'admin');
    await adminA.call('policy.grant.revoke', { id: grant.id });
    await adminB.waitEvent('policy.grants.updated', () => true, 20_000);
    const afterRevoke = await agentB.call('question.request', { sessionKey: session.key, approval: build, timeoutMs: 60_000 });
    expect(afterRevoke.status).toBeUndefined();
  });
});
