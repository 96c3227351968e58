import { describe, expect, it } from 'vitest';
import { OFFER_AGENT, OFFER_PROJECT } from '../../answers/kinds/approval-offers.ts';
import type { GatewayConfig } from '../config.ts';
import { auditEntries } from '../../testing/audit-entries.ts';
import { failure, gatewayPerTest } from '../../testing/gateway-harness.ts';
import { policyConfig } from '../../testing/policy-config.ts';
import type { TestClient } from '../../testing/ws-client.ts';

const gateway = gatewayPerTest();
const WIDE = ['operator.admin', 'operator.questions'];

/** Approvals go to the guest (in its own session) and to `questions`, and need two people's Allow (E5). */
const quorumConfig: GatewayConfig = {
  ...policyConfig,
  routing: {
    escalations: { review: { steps: [{ notify: ['identity:guest', 'identity:questions'], wait: '30m' }], exhausted: 'deny' } },
    routes: [{ match: { kind: ['approval'] }, escalation: 'review', quorum: 2 }],
  },
};

/** An approval a run of the agent asks in the guest's own session (A2), routed to the guest and `questions`. */
async function quorumApproval() {
  const t = await gateway.start({ config: quorumConfig });
  const [admin, guest, questions, agent] = await Promise.all([t.connect('admin'), t.connect('guest'), t.connect('questions'), t.connect('agent', { clientId: 'agent-client' })]);
  const { session } = await guest.call('sessions.create', { title: 'Mine' });
  const { runId } = await agent.call('run.start', { sessionKey: session.key });
  const { id } = await agent.call('question.request', { sessionKey: session.key, runId, approval: { tool: 'Bash', input: { command: 'make deploy' }, cwd: '/srv/app' } });
  const { question } = await admin.call('question.get', { id });
  expect(question.route).toMatchObject({ eligible: ['guest', 'questions'], quorum: { needed: 2, approvals: [] } });
  return { admin, guest, questions, agent, session, id, auditBefore: await auditEntries(admin) };
}

/** What an admin sees of the question: its status and the approvals its quorum holds (the dock's "1 of 2 approvals"). */
async function seen(admin: TestClient, id: string) {
  const { question } = await admin.call('question.get', { id });
  return { status: question.status, approvals: question.route?.quorum?.approvals.map((a) => a.identity) };
}

/** Who the admin heard held a vote, in the order `question.routed` told it (E11). */
const heardVotes = (admin: TestClient, id: string) => admin.eventsNamed('question.routed').filter((p) => p.id === id).map((p) => p.route.quorum?.approvals.map((a) => a.identity));

describe('a vote naming a grant its person may not make (E5, G5, A5)', () => {
  it('[E5][G5][A5] a guest\'s first vote with a project or agent offer (label or grant:{scope}) is refused as a completing one is: nothing held or logged; two permitted Allows still decide it', async () => {
    const { admin, guest, questions, agent, id, auditBefore } = await quorumApproval();
    const tries = [
      { answers: { approval: [OFFER_PROJECT] } },
      { answers: { approval: ['Allow'] }, grant: { scope: 'project' as const } },
      { answers: { approval: [OFFER_AGENT] } },
      { answers: { approval: ['Allow'] }, grant: { scope: 'agent' as const } },
    ];
    const firsts = [];
    for (const [i, tried] of tries.entries()) {
      const refused = await failure(guest.call('question.resolve', { id, ...tried }));
      expect([refused.code, refused.details], `try ${i}`).toEqual(['FORBIDDEN', { needed: WIDE }]);
      firsts.push({ code: refused.code, message: refused.message, details: refused.details });
    }
    expect(await seen(admin, id)).toEqual({ status: 'pending', approvals: [] });
    expect(await auditEntries(admin)).toEqual(auditBefore);
    expect((await admin.call('policy.get', {})).grants).toEqual([]);
    // A permitted person's first vote naming an offer is held as an Allow, as before.
    expect(await questions.call('question.resolve', { id, answers: { approval: [OFFER_PROJECT] } })).toMatchObject({ status: 'pending', quorum: { needed: 2, approvals: [{ identity: 'questions' }] } });
    await admin.waitEvent('question.routed', (p) => p.id === id && p.route.quorum?.approvals.length === 1);
    expect(heardVotes(admin, id)).toEqual([['questions']]);
    // The same choices as the completing vote are refused with the same words.
    for (const [i, tried] of tries.entries()) {
      const refused = await failure(guest.call('question.resolve', { id, ...tried }));
      expect({ code: refused.code, message: refused.message, details: refused.details }, `try ${i}`).toEqual(firsts[i]);
    }
    expect(await seen(admin, id)).toEqual({ status: 'pending', approvals: ['questions'] });
    expect(await admin.call('question.resolve', { id, answers: { approval: ['Allow'] } })).toMatchObject({ status: 'answered' });
    expect(await agent.call('question.waitAnswer', { id })).toMatchObject({ status: 'answered', decision: { behavior: 'allow', decidedBy: 'person' } });
  });

  it('[E5][G5][PT5] a guest\'s first vote as a chat reply (tapped or typed) naming a project or agent offer is refused; no reply kept, nothing held', async () => {
    const { admin, guest, questions, session, id, auditBefore } = await quorumApproval();
    const replies = [
      { message: OFFER_PROJECT, replyTo: { questionId: id, answers: { approval: [OFFER_PROJECT] } } },
      { message: OFFER_AGENT, replyTo: { questionId: id } },
    ];
    for (const [i, reply] of replies.entries()) {
      const refused = await failure(guest.call('chat.send', { sessionKey: session.key, idempotencyKey: `first-vote-${i}`, ...reply }));
      expect([refused.code, refused.details], `reply ${i}`).toEqual(['FORBIDDEN', { needed: WIDE }]);
    }
    expect((await guest.call('chat.history', { sessionKey: session.key })).messages).toEqual([]);
    expect(await seen(admin, id)).toEqual({ status: 'pending', approvals: [] });
    expect(await auditEntries(admin)).toEqual(auditBefore);
    expect(await questions.call('question.resolve', { id, answers: { approval: ['Allow'] } })).toMatchObject({ status: 'pending' });
    await admin.waitEvent('question.routed', (p) => p.id === id && p.route.quorum?.approvals.length === 1);
    expect(heardVotes(admin, id)).toEqual([['questions']]);
    await admin.call('chat.send', { sessionKey: session.key, message: 'Allow', idempotencyKey: 'admin-allow', replyTo: { questionId: id } });
    expect(await seen(admin, id)).toEqual({ status: 'answered', approvals: ['questions', 'admin'] });
  });
});
