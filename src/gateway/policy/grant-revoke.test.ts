import { describe, expect, it } from 'vitest';
import { failure, gatewayPerTest } from '../../testing/gateway-harness.ts';
import { policyConfig } from '../../testing/policy-config.ts';

const gateway = gatewayPerTest();

describe('policy.grant.revoke refused (G12, A4, A5)', () => {
  it('[G12][A5] a refusal names the scope needed, never who made the grant or where', async () => {
    const t = await gateway.start({ config: policyConfig });
    const admin = await t.connect('admin');
    const guest = await t.connect('guest');
    const other = await t.connect('guest2');
    const agent = await t.connect('agent', { clientId: 'agent-client' });
    const { session } = await guest.call('sessions.create', { title: 'Mine' });
    const asked = await agent.call('question.request', { sessionKey: session.key, approval: { tool: 'Bash', input: { command: 'npm run build' } } });
    await guest.call('question.resolve', { id: asked.id, answers: { approval: ['Always allow in this session'] } });
    const [grant] = (await admin.call('policy.get', {})).grants;
    expect(grant).toMatchObject({ grantedBy: 'guest', questionId: asked.id });

    // guest2 may not see the session, the question or who answered it: the refusal tells none of them.
    const refused = await failure(other.call('policy.grant.revoke', { id: grant.id }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.details).toMatchObject({ needed: ['operator.admin'] });
    expect(JSON.stringify(refused)).not.toMatch(/guest(?!2)|Mine|npm run build/);
    expect(JSON.stringify(refused)).not.toContain(session.key);
    // Nor whether the grant exists: an id no grant has gets the same answer from one who may not list the grants.
    const unknown = await failure(other.call('policy.grant.revoke', { id: 'gr-unknown' }));
    const asIf = (e: typeof refused, id: string) => JSON.stringify(e).replaceAll(id, '<id>');
    expect(asIf(unknown, 'gr-unknown')).toBe(asIf(refused, grant.id));
    // An admin, who may list them, is told the id is unknown.
    const told = await failure(admin.call('policy.grant.revoke', { id: 'gr-unknown' }));
    expect(told.code).toBe('INVALID_REQUEST');
    // The maker still may.
    expect(await guest.call('policy.grant.revoke', { id: grant.id })).toEqual({ revoked: true });
  });
});
