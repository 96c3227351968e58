import { describe, expect, it, onTestFinished } from 'vitest';
import { OFFER_AGENT, OFFER_PROJECT, OFFER_SESSION } from '../../answers/kinds/approval-offers.ts';
import type { GatewayConfig } from '../config.ts';
import { createMemoryStore } from '../store/memory.ts';
import type { Store } from '../store/types.ts';
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
async function quorumApproval(opts: { memory?: boolean; store?: Store } = {}) {
  const t = await gateway.start({ config: quorumConfig, ...opts });
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
    // A permitted person's first vote naming an offer is held as an Allow, its grant kept with it.
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

/** E5 on each store engine: a held vote's grant lives in the question's record until the quorum completes. */
describe.each([{ engine: 'sqlite', memory: false }, { engine: 'memory', memory: true }])('a held vote naming a grant ($engine)', ({ memory }) => {
  /** What the admin reads once it is decided: the grants in force (who made each, its scope and rule) and the decision. */
  async function outcome(admin: TestClient, agent: TestClient, id: string) {
    const { decision } = await agent.call('question.waitAnswer', { id });
    const grants = (await admin.call('policy.get', {})).grants.map((g) => ({ id: g.id, scope: g.scope, rule: g.rule, grantedBy: g.grantedBy }));
    return { decision: decision && { behavior: decision.behavior, grantId: decision.grantId }, grants };
  }

  it('[E5][G5][G7] a first vote with a grant.rule not offered is refused as the completing vote is (same code, words, details); nothing held', async () => {
    const { admin, questions, id, auditBefore } = await quorumApproval({ memory });
    const bad = { answers: { approval: ['Allow'] }, grant: { scope: 'project' as const, rule: 'Bash(*)' } };
    const first = await failure(questions.call('question.resolve', { id, ...bad }));
    expect(first.code).toBe('INVALID_REQUEST');
    expect(JSON.stringify(first.details)).toContain('grant.rule');
    expect(await seen(admin, id)).toEqual({ status: 'pending', approvals: [] });
    expect(await auditEntries(admin)).toEqual(auditBefore);
    expect(await questions.call('question.resolve', { id, answers: { approval: ['Allow'] } })).toMatchObject({ status: 'pending' });
    const completing = await failure(admin.call('question.resolve', { id, ...bad }));
    expect({ code: completing.code, message: completing.message, details: completing.details }).toEqual({ code: first.code, message: first.message, details: first.details });
    expect(await seen(admin, id)).toEqual({ status: 'pending', approvals: ['questions'] });
  });

  it('[E5][G5] the first voter\'s "Always allow…" is held with the vote (everyone sees it), but a plain Allow completing the quorum makes no grant', async () => {
    const { admin, agent, questions, id } = await quorumApproval({ memory });
    const held = await questions.call('question.resolve', { id, answers: { approval: [OFFER_PROJECT] } });
    expect(held).toMatchObject({ status: 'pending', quorum: { approvals: [{ identity: 'questions', grant: { scope: 'project' } }] } });
    const { question } = await admin.call('question.get', { id });
    expect(question.route?.quorum?.approvals.map((a) => a.grant?.scope)).toEqual(['project']);
    expect((await admin.call('policy.get', {})).grants).toEqual([]);
    expect(await admin.call('question.resolve', { id, answers: { approval: ['Allow'] } })).toMatchObject({ status: 'answered' });
    expect(await outcome(admin, agent, id)).toEqual({ decision: { behavior: 'allow', grantId: undefined }, grants: [] });
    expect((await auditEntries(admin)).filter((e) => e.event === 'grant.made')).toEqual([]);
  });

  it('[E5][G5] a plain Allow held first, then an "Always allow…" completing the quorum, makes no grant', async () => {
    const { admin, agent, questions, id } = await quorumApproval({ memory });
    expect(await questions.call('question.resolve', { id, answers: { approval: ['Allow'] } })).toMatchObject({ status: 'pending' });
    expect(await admin.call('question.resolve', { id, answers: { approval: [OFFER_PROJECT] } })).toMatchObject({ status: 'answered' });
    expect(await outcome(admin, agent, id)).toEqual({ decision: { behavior: 'allow', grantId: undefined }, grants: [] });
  });

  it('[E5][G5] two voters naming different grants make none (the least permissive reading): a plain Allow', async () => {
    const { admin, agent, questions, id } = await quorumApproval({ memory });
    await questions.call('question.resolve', { id, answers: { approval: [OFFER_PROJECT] } });
    expect(await admin.call('question.resolve', { id, answers: { approval: [OFFER_AGENT] } })).toMatchObject({ status: 'answered' });
    expect(await outcome(admin, agent, id)).toEqual({ decision: { behavior: 'allow', grantId: undefined }, grants: [] });
  });

  it('[E5][G5] two voters naming the same grant make it once; a voter\'s later plain Allow takes back the grant they held', async () => {
    const { admin, agent, questions, guest, id } = await quorumApproval({ memory });
    await guest.call('question.resolve', { id, answers: { approval: [OFFER_SESSION] } });
    expect(await guest.call('question.resolve', { id, answers: { approval: ['Allow'] } })).toMatchObject({ status: 'pending', quorum: { approvals: [{ identity: 'guest' }] } });
    expect((await admin.call('question.get', { id })).question.route?.quorum?.approvals).toEqual([expect.not.objectContaining({ grant: expect.anything() })]);
    await guest.call('question.resolve', { id, answers: { approval: [OFFER_SESSION] } });
    expect(await questions.call('question.resolve', { id, answers: { approval: ['Allow'] }, grant: { scope: 'session' } })).toMatchObject({ status: 'answered' });
    const { decision, grants } = await outcome(admin, agent, id);
    expect(grants.map((g) => [g.scope, g.grantedBy])).toEqual([['session', 'guest']]);
    expect(decision).toEqual({ behavior: 'allow', grantId: grants[0].id });
  });

  it.each([
    { change: 'unchanged', scopes: ['operator.questions' as const], made: true },
    { change: 'without operator.questions', scopes: ['operator.sessions.write' as const], made: false },
    { change: 'gone from the config', scopes: null, made: false },
  ])('[E5][G5][A5] two votes choosing the same project grant, the first one\'s identity $change in the config the gateway restarts with: made $made', async ({ scopes, made }) => {
    const store = memory ? createMemoryStore() : undefined;
    if (store) onTestFinished(() => store.close());
    const first = await quorumApproval(store ? { store } : {});
    await first.questions.call('question.resolve', { id: first.id, answers: { approval: [OFFER_PROJECT] } });
    const { dir } = gateway.t;
    await gateway.t.close(store ? {} : { keepDir: true });
    const identities = quorumConfig.identities.flatMap((i) => (i.id !== 'questions' ? [i] : scopes === null ? [] : [{ ...i, scopes }]));
    // A route may name only configured identities: with `questions` gone, the review notifies the guest alone.
    const notify = scopes === null ? ['identity:guest'] : ['identity:guest', 'identity:questions'];
    const routing = { ...quorumConfig.routing!, escalations: { review: { steps: [{ notify, wait: '30m' }], exhausted: 'deny' as const } } };
    const t = await gateway.start({ config: { ...quorumConfig, identities, routing }, ...(store ? { store } : { dir }) });
    const [admin, agent] = await Promise.all([t.connect('admin'), t.connect('agent', { clientId: 'agent-client' })]);
    expect(await admin.call('question.resolve', { id: first.id, answers: { approval: [OFFER_PROJECT] } })).toMatchObject({ status: 'answered' });
    const { decision, grants } = await outcome(admin, agent, first.id);
    expect(grants.map((g) => [g.scope, g.grantedBy])).toEqual(made ? [['project', 'questions']] : []);
    expect(decision).toEqual({ behavior: 'allow', grantId: made ? grants[0].id : undefined });
  });
});
