import { afterEach, describe, expect, it } from 'vitest';
import type { TestClient } from '../../testing/ws-client.ts';
import { failure, item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { connectPerson, routingConfig } from '../../testing/routing-gateway.ts';
import { auditEntries } from '../../testing/audit-entries.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const MIN = 60_000;

async function setup(clock = new FakeClock()) {
  t = await startTestGateway({ config: routingConfig, clock });
  const admin = await t.connect('admin');
  const agent = await t.connect('agent', { clientId: 'agent-client' });
  const [ana, bo, cy] = await Promise.all([connectPerson(t, 'ana'), connectPerson(t, 'bo'), connectPerson(t, 'cy')]);
  const { session } = await admin.call('sessions.create', { title: 'Deploys' });
  return { clock, admin, agent, ana, bo, cy, session };
}

const push = { tool: 'Bash', input: { command: 'git push origin main' } };

/** L1: the audit log's entries of one question. */
const auditOf = async (admin: TestClient, id: string) => (await auditEntries(admin)).filter((e) => e.questionId === id);

describe('routed questions (E2, E3, E11)', () => {
  it('[E2][E3][E11][L1] a routed question waits for its first step; anyone else is refused with who it waits for; after the wait the group is notified', async () => {
    const { clock, admin, agent, ana, bo, session } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()], timeoutMs: 3_600_000 });
    const { question } = await bo.waitEvent('question.requested', (p) => p.question.id === id);
    expect(question.route).toMatchObject({ escalation: 'team', step: 0, notified: ['ana'], eligible: ['ana'], nextAtMs: clock.now() + 5 * MIN });
    const refused = await failure(bo.call('question.resolve', { id, answers: { env: ['Staging'] } }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.details).toEqual({ eligible: ['ana'] });
    expect((await bo.call('question.get', { id })).question.status).toBe('pending');
    clock.advance(5 * MIN);
    const routed = await ana.waitEvent('question.routed', (p) => p.id === id);
    expect(routed.route).toMatchObject({ step: 1, notified: ['ana', 'bo', 'cy'], eligible: ['ana', 'bo', 'cy'], nextAtMs: clock.now() + 10 * MIN });
    expect(await bo.call('question.resolve', { id, answers: { env: ['Staging'] } })).toMatchObject({ status: 'answered' });
    // E7: every surface reads who answered by the name the config gives.
    expect((await ana.waitEvent('question.resolved', (p) => p.id === id)).resolvedBy).toMatchObject({ identity: 'bo', name: 'Bo' });
    // L1: who was first notified and the step are entries of the audit log, between the asking and the answer.
    const entries = await auditOf(admin, id);
    expect(entries.map((e) => e.event)).toEqual(['question.asked', 'question.notified', 'question.escalated', 'question.answered']);
    expect(entries[1].detail).toEqual({ escalation: 'team', step: 0, notified: 'ana' });
    expect(entries[2].detail).toEqual({ step: 1, notified: 'bo,cy' });
  });

  it('[E2][L1] steps that run out: an approval is denied by timeout with reason escalation-exhausted', async () => {
    const { clock, admin, agent, session } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, approval: push, timeoutMs: 3_600_000 });
    const wait = agent.call('question.waitAnswer', { id });
    clock.advance(5 * MIN);
    await agent.waitEvent('question.routed', (p) => p.id === id && p.route.step === 1);
    clock.advance(10 * MIN);
    expect(await wait).toMatchObject({ status: 'expired', reason: 'escalation-exhausted', decision: { behavior: 'deny', decidedBy: 'timeout' } });
    // L1: the log says why it ended, as the agent was told.
    const ended = (await auditOf(admin, id)).find((e) => e.event === 'question.expired');
    expect(ended).toMatchObject({ status: 'denied', decidedBy: 'timeout', detail: { reason: 'escalation-exhausted' } });
  });

  it('[E4][L1] "I\'m on it" pauses the escalation for 30 minutes, then it goes on from where it was; someone not eligible may not acknowledge', async () => {
    const { clock, admin, agent, ana, bo, session } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()], timeoutMs: 3_600_000 });
    expect((await failure(bo.call('question.ack', { id }))).details).toEqual({ eligible: ['ana'] });
    const { route } = await ana.call('question.ack', { id });
    expect(route.ackedBy).toEqual({ identity: 'ana', name: 'Ana', atMs: clock.now(), untilMs: clock.now() + 30 * MIN });
    expect(route.nextAtMs).toBe(clock.now() + 35 * MIN);
    const t0 = clock.now();
    clock.advance(5 * MIN);
    clock.advance(30 * MIN);
    // The second step ran when the pause ended (35 minutes in), not at its first deadline: its own wait counts from then.
    const step = (await ana.waitEvent('question.routed', (p) => p.id === id && p.route.step === 1)).route;
    expect(step).toMatchObject({ notified: ['ana', 'bo', 'cy'], nextAtMs: t0 + 45 * MIN });
    expect(ana.eventsNamed('question.routed').filter((p) => p.id === id && p.route.step === 1)).toHaveLength(1);
    expect((await auditOf(admin, id)).map((e) => [e.event, e.identity])).toEqual([['question.asked', 'agent'], ['question.notified', undefined], ['question.acknowledged', 'ana'], ['question.escalated', undefined]]);
  });

  it('[E6][L1] a hand-off passes the question to a named person with a note; they may answer', async () => {
    const { admin, agent, ana, cy, session } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()], timeoutMs: 3_600_000 });
    expect((await failure(ana.call('question.handoff', { id, to: 'identity:nobody' }))).code).toBe('INVALID_REQUEST');
    const { route } = await ana.call('question.handoff', { id, to: 'identity:cy', note: 'you know this service', drafts: { env: ['Production'] } });
    expect(route.eligible).toEqual(['ana', 'cy']);
    // E6: the sender reads the hand-off without the drafts it sent (only the target reads them, handoff-drafts.test.ts).
    expect(route.handoffs).toEqual([{ from: 'ana', to: 'identity:cy', note: 'you know this service', atMs: expect.any(Number), reached: ['cy'] }]);
    expect((await cy.waitEvent('question.routed', (p) => p.id === id)).notify).toEqual(['cy']);
    expect(await cy.call('question.resolve', { id, answers: { env: ['Staging'] } })).toMatchObject({ status: 'answered' });
    const handedOff = (await auditOf(admin, id)).find((e) => e.event === 'question.handedOff');
    expect(handedOff).toMatchObject({ identity: 'ana', detail: { to: 'identity:cy', notified: 'cy' } });
  });

  it('[E6][E3][L1] a hand-off to a group skips a member who may not see the question, and its entry says so', async () => {
    const groups = { ops: { members: ['bo', 'cy'] }, mixed: { members: ['cy', 'agent'] } };
    t = await startTestGateway({ config: { ...routingConfig, routing: { ...routingConfig.routing!, groups } }, clock: new FakeClock() });
    const admin = await t.connect('admin');
    const agent = await t.connect('agent', { clientId: 'agent-client' });
    const ana = await connectPerson(t, 'ana');
    const { session } = await admin.call('sessions.create', { title: 'Deploys' });
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()], timeoutMs: 3_600_000 });
    await ana.call('question.handoff', { id, to: 'group:mixed' });
    const handedOff = (await auditOf(admin, id)).find((e) => e.event === 'question.handedOff');
    expect(handedOff).toMatchObject({ identity: 'ana', detail: { to: 'group:mixed', notified: 'cy', skipped: 'group:mixed[agent] (may-not-see)' } });
  });
});

describe('two-person approval (E5)', () => {
  it('[E5][L1] an Allow short of the quorum answers pending; the same person twice counts once; a second person allows it', async () => {
    const { clock, agent, admin, ana, session } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, approval: push, timeoutMs: 3_600_000 });
    const first = await ana.call('question.resolve', { id, answers: { approval: ['Allow'] }, surface: 'tui' });
    expect(first).toEqual({ status: 'pending', quorum: { needed: 2, approvals: [{ identity: 'ana', name: 'Ana', surface: 'tui', atMs: clock.now() }] } });
    expect(await ana.call('question.resolve', { id, answers: { approval: ['Allow'] }, surface: 'control-ui' })).toEqual(first);
    expect((await agent.call('question.waitAnswer', { id, timeoutMs: 0 })).status).toBe('pending');
    expect(await admin.call('question.resolve', { id, answers: { approval: ['Allow'] } })).toMatchObject({ status: 'answered' });
    expect(await agent.call('question.waitAnswer', { id })).toMatchObject({ status: 'answered', decision: { behavior: 'allow', decidedBy: 'person' } });
    // L1: the decision's entry names both approvals, not only the one that met the quorum.
    const answered = (await auditOf(admin, id)).find((e) => e.event === 'question.answered');
    expect(answered).toMatchObject({ identity: 'admin', detail: { approvals: 'ana@tui,admin@cli' } });
  });

  it('[E5][C5] a chat reply short of the quorum still moves the session for its readers: its last message, the question still counted', async () => {
    const { agent, admin, session } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', approval: push, timeoutMs: 3_600_000 });
    await admin.waitEvent('session.updated', (e) => e.session.key === session.key && e.session.pendingQuestions === 1);
    admin.events.length = 0;
    const reply = { questionId: id, answers: { approval: ['Allow'] } };
    const sent = await admin.call('chat.send', { sessionKey: session.key, message: 'Allow', idempotencyKey: 'short-of-quorum', replyTo: reply });
    expect((await admin.call('question.get', { id })).question.status).toBe('pending');
    const { messages } = await admin.call('chat.history', { sessionKey: session.key });
    const replyAt = messages.find((m) => m.id === sent.messageId)?.createdAtMs;
    const moved = await admin.waitEvent('session.updated', (e) => e.session.key === session.key && e.session.lastMessageAtMs === replyAt, 20_000);
    expect(moved.session.pendingQuestions).toBe(1);
  });

  it('[E5] the first Deny denies at once', async () => {
    const { agent, ana, session } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, approval: push, timeoutMs: 3_600_000 });
    expect(await ana.call('question.resolve', { id, answers: { approval: ['Deny'] } })).toMatchObject({ status: 'answered' });
    expect(await agent.call('question.waitAnswer', { id })).toMatchObject({ decision: { behavior: 'deny', decidedBy: 'person' } });
  });
});

describe('routing.status and routing.test (E12)', () => {
  it('[E12] routing.test tells the route and each step\'s people; routing.status lists the routed questions the caller may see', async () => {
    const { clock, agent, ana, session } = await setup();
    const test = await ana.call('routing.test', { tool: 'Bash(git push origin main)' });
    expect(test.route).toEqual({ routes: [0], escalation: 'deploy', quorum: 2 });
    expect(test.steps.map((s) => [s.atMs - clock.now(), s.notify])).toEqual([[0, ['ana']], [5 * MIN, ['bo', 'cy']]]);
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()], timeoutMs: 3_600_000 });
    expect((await ana.call('routing.status', {})).questions).toEqual([{ id, step: 0, nextAtMs: clock.now() + 5 * MIN, waitsFor: ['Ana'], next: ['ops'] }]);
    // E9: a question that expires before the second step says so, by the group the step would reach.
    const short = await agent.call('question.request', { sessionKey: session.key, questions: [item()], mode: 'async', timeoutMs: 4 * MIN });
    const status = (await ana.call('routing.status', {})).questions.find((q) => q.id === short.id);
    expect(status).toMatchObject({ waitsFor: ['Ana'], unreached: ['ops'] });
    expect(status?.next).toBeUndefined();
  });
});

describe('routing.status names people (E9, E12)', () => {
  it('[E9] each schedule\'s person now and next comes by id and by the display name the config gives', async () => {
    const schedules = { primary: { timezone: 'UTC', layers: [{ members: ['ana', 'bo'], rotation: 'daily', handoff: '09:00' }] } };
    t = await startTestGateway({ config: { ...routingConfig, routing: { ...(routingConfig.routing as object), schedules } }, clock: new FakeClock() });
    const ana = await connectPerson(t, 'ana');
    const [primary] = (await ana.call('routing.status', {})).schedules;
    const named = { ana: 'Ana', bo: 'Bo' } as Record<string, string>;
    expect([primary.now, primary.next].sort()).toEqual(['ana', 'bo']);
    expect(primary).toMatchObject({ nowName: named[primary.now ?? ''], nextName: named[primary.next ?? ''] });
  });
});

describe('escalation across a restart (E2, D3)', () => {
  it('[E2][D3] a step whose deadline passed while the gateway was down runs once on start, and the next one waits its own time', async () => {
    const before = new FakeClock();
    const { agent, session } = await setup(before);
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()], mode: 'async', timeoutMs: 3_600_000 });
    const gw = t as TestGateway;
    const { dir, dbPath } = gw;
    await gw.close({ keepDir: true });
    // Down for 20 minutes: the first step's 5 minutes ran out, and would have run out for the second too had it started then.
    const after = new FakeClock(before.now() + 20 * MIN);
    t = await startTestGateway({ config: routingConfig, clock: after, dir, dbPath });
    const bo = await connectPerson(t, 'bo');
    await expect.poll(async () => (await bo.call('question.get', { id })).question.route?.step, { timeout: 10_000 }).toBe(1);
    const { question } = await bo.call('question.get', { id });
    expect(question.status).toBe('pending');
    expect(question.route).toMatchObject({ notified: ['ana', 'bo', 'cy'], nextAtMs: after.now() + 10 * MIN });
    expect(await bo.call('question.resolve', { id, answers: { env: ['Staging'] } })).toMatchObject({ status: 'answered' });
  });
});

describe('plain replies to a routed question (E3)', () => {
  it('[E3] a reply in the chat from someone the question does not wait for is refused and answers nothing', async () => {
    t = await startTestGateway({ config: routingConfig, clock: new FakeClock() });
    const guest = await t.connect('guest', { mode: 'tui' });
    const agent = await t.connect('agent', { mode: 'agent' });
    const ana = await connectPerson(t, 'ana');
    const { session } = await guest.call('sessions.create', {});
    const { runId } = await agent.call('run.start', { sessionKey: session.key });
    const { id } = await agent.call('question.request', { sessionKey: session.key, runId, questions: [item()], timeoutMs: 3_600_000 });
    const refused = await failure(guest.call('chat.send', { sessionKey: session.key, message: '1', idempotencyKey: 'plain-reply-1', replyTo: { questionId: id } }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.details).toEqual({ eligible: ['ana'] });
    expect((await ana.call('question.get', { id })).question.status).toBe('pending');
  });
});

describe('what asks (E1)', () => {
  it('[E1] source names what asks: an MCP server through the proxy asks an elicitation (no route here matches it), hooks go their own way; a malformed source is refused by name', async () => {
    const { agent, session } = await setup();
    const ask = (source?: string) => agent.call('question.request', { sessionKey: session.key, questions: [item()], mode: 'async', ...(source ? { source } : {}) });
    const get = async (id: string) => (await agent.call('question.get', { id })).question.route;
    expect((await get((await ask()).id))?.escalation).toBe('team');
    expect(await get((await ask('hook:codex')).id)).toMatchObject({ escalation: 'hooks', notified: ['bo'] });
    expect(await get((await ask('mcp-proxy:github')).id)).toBeUndefined();
    const refused = await failure(ask('somewhere'));
    expect(refused.code).toBe('INVALID_REQUEST');
    expect(refused.message).toContain('source');
  });
});

describe('who a target reaches (E1, E3)', () => {
  const ownerFirst = {
    ...routingConfig,
    routing: {
      escalations: { owner: { steps: [{ notify: ['session-owner', 'identity:agent', 'identity:ana'], wait: '5m' }, { notify: ['identity:agent'], wait: '5m' }], exhausted: 'keep' as const } },
      routes: [{ match: { kind: ['question' as const] }, escalation: 'owner' }],
    },
  };

  it('[E1][E3][L1] session-owner is the person who owns the session; an agent that made its own session, or named as a target, is skipped, never notified or eligible', async () => {
    const clock = new FakeClock();
    t = await startTestGateway({ config: ownerFirst, clock });
    const admin = await t.connect('admin');
    const agent = await t.connect('agent', { clientId: 'agent-client' });
    await connectPerson(t, 'ana');
    const { session: own } = await agent.call('sessions.create', { title: 'Agent work', idempotencyKey: 'agent-own-session' });
    const asked = await agent.call('question.request', { sessionKey: own.key, questions: [item()], timeoutMs: 3_600_000 });
    const { question } = await admin.call('question.get', { id: asked.id });
    expect(question.route).toMatchObject({ notified: ['ana'], eligible: ['ana'] });
    expect(question.route?.skipped?.map((s) => [s.target, s.reason])).toEqual([['session-owner', 'no-session-owner'], ['identity:agent', 'may-not-see']]);
    // L1: the skips are entries of the audit log, with the step that skipped them.
    clock.advance(5 * MIN);
    await admin.waitEvent('question.routed', (p) => p.id === asked.id && p.route.step === 1);
    const entries = (await auditEntries(admin)).filter((e) => e.questionId === asked.id);
    expect(entries.find((e) => e.event === 'question.notified')?.detail).toMatchObject({ notified: 'ana', skipped: 'session-owner (no-session-owner), identity:agent (may-not-see)' });
    expect(entries.find((e) => e.event === 'question.escalated')?.detail).toEqual({ step: 1, notified: '', skipped: 'identity:agent (may-not-see)' });
    // A session a person made: that person is its owner and is notified.
    const { session: theirs } = await admin.call('sessions.create', { title: 'Deploys' });
    const second = await agent.call('question.request', { sessionKey: theirs.key, questions: [item()], timeoutMs: 3_600_000 });
    expect((await admin.call('question.get', { id: second.id })).question.route).toMatchObject({ notified: ['admin', 'ana'] });
  });

  it('[E12][E3] a refused answer lists who the question waits for, without an admin it notified (admins are always eligible)', async () => {
    t = await startTestGateway({ config: ownerFirst, clock: new FakeClock() });
    const admin = await t.connect('admin');
    const agent = await t.connect('agent', { clientId: 'agent-client' });
    const [ana, bo] = await Promise.all([connectPerson(t, 'ana'), connectPerson(t, 'bo')]);
    const { session } = await admin.call('sessions.create', { title: 'Deploys' });
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()], timeoutMs: 3_600_000 });
    expect((await admin.call('question.get', { id })).question.route).toMatchObject({ notified: ['admin', 'ana'] });
    const refused = await failure(bo.call('question.resolve', { id, answers: { env: ['Staging'] } }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.details).toEqual({ eligible: ['ana'] });
    expect(await ana.call('question.resolve', { id, answers: { env: ['Staging'] } })).toMatchObject({ status: 'answered' });
  });
});
