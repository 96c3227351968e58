import { describe, expect, it } from 'vitest';
import { OFFER_AGENT, OFFER_PROJECT, OFFER_SESSION } from '../../answers/kinds/approval-offers.ts';
import { exportFiles } from '../../testing/audit-gateway.ts';
import { failure, gatewayPerTest, type Viewer } from '../../testing/gateway-harness.ts';
import { policyConfig } from '../../testing/policy-config.ts';

const gateway = gatewayPerTest();
const WIDE = ['operator.admin', 'operator.questions'];

/** The guest's own session (A2) where a run of the agent asks approvals in folder /srv/app; `who` answers them. */
async function approvalIn(who: Viewer) {
  const t = await gateway.start({ config: policyConfig });
  const admin = await t.connect('admin');
  const guest = await t.connect('guest');
  const person = who === 'guest' ? guest : await t.connect(who);
  const agent = await t.connect('agent', { clientId: 'agent-client' });
  const { session } = await guest.call('sessions.create', { title: 'Mine' });
  const { runId } = await agent.call('run.start', { sessionKey: session.key });
  const ask = (command: string) =>
    agent.call('question.request', { sessionKey: session.key, runId, approval: { tool: 'Bash', input: { command }, cwd: '/srv/app' } });
  return { admin, person, agent, session, ask };
}

/** What the audit log holds, by event name (an admin's export). */
async function auditEvents(admin: Awaited<ReturnType<typeof approvalIn>>['admin']): Promise<string[]> {
  const entries = (await exportFiles(admin, { unsigned: true })).get('entries.jsonl') ?? '';
  return entries.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).event as string);
}

describe('who may make which grant (G5, G12, A3, A5)', () => {
  it('[G5][A3][A5] a guest in its own session: a project or agent grant is refused FORBIDDEN naming the scopes, by label or grant:{scope}; nothing is left', async () => {
    const { admin, person: guest, ask } = await approvalIn('guest');
    const asked = await ask('make deploy');
    const before = await auditEvents(admin);
    expect(before).toContain('question.asked');
    const tries = [
      { scope: 'project', answers: { approval: [OFFER_PROJECT] } },
      { scope: 'project', answers: { approval: ['Allow'] }, grant: { scope: 'project' as const } },
      { scope: 'agent', answers: { approval: [OFFER_AGENT] } },
      { scope: 'agent', answers: { approval: ['Allow'] }, grant: { scope: 'agent' as const } },
    ];
    for (const [i, { scope, ...tried }] of tries.entries()) {
      const refused = await failure(guest.call('question.resolve', { id: asked.id, ...tried }));
      expect([refused.code, refused.details], `try ${i}`).toEqual(['FORBIDDEN', { needed: WIDE }]);
      expect(refused.message, `try ${i}`).toContain(`a grant for this ${scope} needs scope operator.admin or operator.questions`);
    }
    // The whole resolve was refused: still pending, no grant, nothing in the log, and the agent is still asked.
    expect((await guest.call('question.get', { id: asked.id })).question.status).toBe('pending');
    expect((await admin.call('policy.get', {})).grants).toEqual([]);
    expect(await auditEvents(admin)).toEqual(before);
    expect((await admin.call('policy.check', { tool: 'Bash', input: { command: 'make deploy' }, cwd: '/srv/app', agent: 'agent' })).decision).toBe('ask');
  });

  it('[G5][A3][PT5] a guest\'s plain-text reply naming a project or agent offer is refused the same way; the reply is not kept', async () => {
    const { admin, person: guest, session, ask } = await approvalIn('guest');
    const asked = await ask('make deploy');
    const before = await auditEvents(admin);
    for (const offer of [OFFER_PROJECT, OFFER_AGENT]) {
      const typed = await failure(guest.call('chat.send', { sessionKey: session.key, message: offer, idempotencyKey: `typed ${offer}`, replyTo: { questionId: asked.id } }));
      expect([typed.code, typed.details], offer).toEqual(['FORBIDDEN', { needed: WIDE }]);
    }
    expect((await guest.call('chat.history', { sessionKey: session.key })).messages).toEqual([]);
    expect((await guest.call('question.get', { id: asked.id })).question.status).toBe('pending');
    expect((await admin.call('policy.get', {})).grants).toEqual([]);
    expect(await auditEvents(admin)).toEqual(before);
  });

  it('[G5][A3] a guest may still make a session grant in its own session', async () => {
    const { admin, person: guest, session, ask } = await approvalIn('guest');
    const asked = await ask('make deploy');
    expect(await guest.call('question.resolve', { id: asked.id, answers: { approval: [OFFER_SESSION] } })).toMatchObject({ status: 'answered' });
    const { grants } = await admin.call('policy.get', {});
    expect(grants).toEqual([expect.objectContaining({ scope: 'session', sessionKey: session.key, grantedBy: 'guest', questionId: asked.id })]);
  });

  it('[G5][A3] operator.questions may make a project grant (by label) and an agent grant (grant:{scope})', async () => {
    const { admin, person: questions, ask } = await approvalIn('questions');
    const first = await ask('make deploy');
    await questions.call('question.resolve', { id: first.id, answers: { approval: [OFFER_PROJECT] } });
    const second = await ask('make lint');
    await questions.call('question.resolve', { id: second.id, answers: { approval: ['Allow'] }, grant: { scope: 'agent' } });
    const { grants } = await admin.call('policy.get', {});
    expect(grants.map((g) => [g.scope, g.project ?? g.agent, g.grantedBy])).toEqual([
      ['project', '/srv/app', 'questions'],
      ['agent', 'agent', 'questions'],
    ]);
    // The project grant reaches a request under that folder in any session.
    expect((await admin.call('policy.check', { tool: 'Bash', input: { command: 'make deploy' }, cwd: '/srv/app/web', agent: 'agent2' })).decision).toBe('allow');
  });
});
