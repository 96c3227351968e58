import { afterEach, describe, expect, it } from 'vitest';
import { failure, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { policyConfig } from '../../testing/policy-config.ts';
import { FakeClock } from '../../testing/fake-clock.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function setup(over: Parameters<typeof startTestGateway>[0] = {}) {
  t = await startTestGateway({ config: policyConfig, ...over });
  const admin = await t.connect('admin');
  const agent = await t.connect('agent', { clientId: 'agent-client' });
  const { session } = await admin.call('sessions.create', { title: 'Work' });
  return { admin, agent, session };
}

const bash = (command: string) => ({ tool: 'Bash', input: { command } });

describe('approvals decided by the policy (G11, G6)', () => {
  it('[G11][G6] an allowed request is answered at once: no question reaches a person, the session gets the one-line notice', async () => {
    const { admin, agent, session } = await setup();
    const res = await agent.call('question.request', { sessionKey: session.key, approval: bash('npm run test src/a.test.ts') });
    expect(res).toEqual({ id: res.id, expiresAtMs: null, status: 'answered', decision: { behavior: 'allow', decidedBy: 'policy', rules: ['npm-tests'] } });
    const notice = await admin.waitEvent('chat', (p) => p.message.role === 'system');
    expect(notice.message.text).toBe('✓ Allowed Bash(npm run test src/a.test.ts) · rule npm-tests');
    // The notice was committed with the record: by now any question.requested would have arrived before it.
    expect(admin.eventsNamed('question.requested')).toEqual([]);
    expect((await admin.call('question.list', { status: 'pending' })).questions).toEqual([]);
    const { messages } = await admin.call('chat.history', { sessionKey: session.key });
    expect(messages.map((m) => [m.role, m.text])).toEqual([['system', '✓ Allowed Bash(npm run test src/a.test.ts) · rule npm-tests']]);
    const { question } = await admin.call('question.get', { id: res.id });
    expect(question).toMatchObject({ status: 'answered', resolvedBy: { identity: 'policy', surface: 'policy' }, answers: { approval: ['Allow'] } });
    // Nobody was asked: the record names the rule that decided, not why a person would have been asked.
    expect(question.questions[0].question).toBe('Bash(npm run test src/a.test.ts) allowed by rule npm-tests (Bash(npm run test *)).');
    // A resend with the same id answers the first result, decision included (Q2).
    const again = await agent.call('question.request', { id: res.id, sessionKey: session.key, approval: bash('npm run test src/a.test.ts') });
    expect(again).toEqual(res);
  });

  it('[G11][G6] a denied request is answered at once with the rule and its reason; nothing is pending', async () => {
    const { admin, agent, session } = await setup();
    const res = await agent.call('question.request', { sessionKey: session.key, approval: bash('rm -rf /') });
    expect(res.decision).toEqual({ behavior: 'deny', decidedBy: 'policy', rules: ['no-rm'], message: 'nothing is deleted wholesale' });
    const notice = await admin.waitEvent('chat', (p) => p.message.role === 'system');
    expect(notice.message.text).toBe('✕ Denied Bash(rm -rf /) · rule no-rm');
    expect(admin.eventsNamed('question.requested')).toEqual([]);
    expect((await agent.call('question.waitAnswer', { id: res.id, timeoutMs: 0 })).decision).toEqual(res.decision);
    const { question } = await admin.call('question.get', { id: res.id });
    expect(question.questions[0].question).toBe('Bash(rm -rf /) denied by rule no-rm (Bash(rm -rf *)): nothing is deleted wholesale.');
  });

  it('[G11][X2] an MCP tool\'s approval is headed by the tool\'s name without mcp__, cut to 12', async () => {
    const { admin, agent, session } = await setup();
    const res = await agent.call('question.request', { sessionKey: session.key, approval: { tool: 'mcp__github__create_issue', input: { title: 'x' } } });
    const { question } = await admin.waitEvent('question.requested', (p) => p.question.id === res.id);
    expect(question.questions[0].header).toBe('github__crea');
    expect(question.questions[0].question).toBe('Allow mcp__github__create_issue?');
    expect(question.questions[0].options[0]).toEqual({ label: 'Allow', description: 'This request only. Asked because no rule matched.' });
  });

  it('[G11][G7] ask: the gateway makes the approval question; a person\'s Allow comes back as the decision on waitAnswer', async () => {
    const { admin, agent, session } = await setup();
    const res = await agent.call('question.request', { sessionKey: session.key, approval: bash('git push origin main') });
    expect(res.status).toBeUndefined();
    expect(res.expiresAtMs).toEqual(expect.any(Number));
    const { question } = await admin.waitEvent('question.requested', (p) => p.question.id === res.id);
    const [item] = question.questions;
    expect(item.kind).toBe('approval');
    // X2 through G11: the header is the tool's name (cut to 12), whoever asks.
    expect(item.header).toBe('Bash');
    // X2 through G11: exactly `Allow <tool> <what>?`; why the policy asks is Allow's description.
    expect(item.question).toBe('Allow Bash git push origin main?');
    expect(item.options[0].description).toBe('This request only. Asked because rule push (Bash(git push *)) asks: pushing leaves the machine.');
    expect(item.detail).toBe('git push origin main');
    expect(item.options.map((o) => o.label)).toEqual(['Allow', 'Deny', 'Always allow in this session', 'Always allow for this agent for 7 days']);
    expect(item.options[2].description).toMatch(/^Rule: Bash\(git push /);
    await admin.call('question.resolve', { id: res.id, answers: { approval: ['Allow'] } });
    const waited = await agent.call('question.waitAnswer', { id: res.id });
    expect(waited.decision).toEqual({
      behavior: 'allow',
      decidedBy: 'person',
      rules: ['push'],
      resolvedBy: { identity: 'admin', surface: 'cli', atMs: expect.any(Number) },
    });
  });

  it('[G11][Q12] typed text denies with that text as the message; an unmatched request says no rule matched', async () => {
    const { admin, agent, session } = await setup();
    const res = await agent.call('question.request', { sessionKey: session.key, approval: { tool: 'Edit', input: { file_path: 'src/a.ts' }, cwd: '/repo' } });
    const { question } = await admin.waitEvent('question.requested', (p) => p.question.id === res.id);
    expect(question.questions[0].question).toBe('Allow Edit src/a.ts?');
    expect(question.questions[0].options[0].description).toContain('no rule matched');
    await admin.call('question.resolve', { id: res.id, answers: { approval: ['not that file'] } });
    const waited = await agent.call('question.waitAnswer', { id: res.id });
    expect(waited.decision).toMatchObject({ behavior: 'deny', decidedBy: 'person', message: 'not that file', rules: [] });
  });
});

describe('approval requests checked (G11, Q2)', () => {
  it('[G11] a bad approval is refused naming each field; questions may be left out only when an approval is given', async () => {
    const { agent, session } = await setup();
    const bad = await failure(agent.call('question.request', { sessionKey: session.key, approval: { tool: '', input: 'rm' as never } }));
    expect(bad.code).toBe('INVALID_REQUEST');
    expect(bad.details).toEqual([
      { path: 'approval.tool', problem: 'approval.tool must not be empty' },
      { path: 'approval.input', problem: 'approval.input must be an object' },
    ]);
    const none = await failure(agent.call('question.request', { sessionKey: session.key } as never));
    expect(none.details).toEqual([{ path: 'questions', problem: 'questions are required (unless approval is given)' }]);
  });
});

describe('approvals nobody answers (G10, G11)', () => {
  it('[G10][G11] an approval that expires is denied, decided by timeout', async () => {
    const clock = new FakeClock();
    const { agent, session } = await setup({ clock });
    const res = await agent.call('question.request', { sessionKey: session.key, approval: bash('git push origin main'), timeoutMs: 30_000 });
    const wait = agent.call('question.waitAnswer', { id: res.id });
    clock.advance(30_000);
    expect(await wait).toMatchObject({ status: 'expired', decision: { behavior: 'deny', decidedBy: 'timeout', rules: ['push'] } });
  });

  it('[G5] a grant ends at its expiry: an agent grant lasts 7 days, then the request asks again', async () => {
    const clock = new FakeClock();
    const { admin, agent, session } = await setup({ clock });
    const ask = () => agent.call('question.request', { sessionKey: session.key, approval: bash('npm run build') });
    const first = await ask();
    await admin.call('question.resolve', { id: first.id, answers: { approval: ['Always allow for this agent for 7 days'] } });
    const [grant] = (await admin.call('policy.get', {})).grants;
    expect(grant.expiresAt - clock.now()).toBe(7 * 24 * 60 * 60 * 1000);
    clock.advance(7 * 24 * 60 * 60 * 1000 - 1);
    expect((await ask()).decision?.decidedBy).toBe('grant');
    clock.advance(1);
    expect((await ask()).status).toBeUndefined();
    expect((await admin.call('policy.get', {})).grants).toEqual([]);
  });
});

describe('grants (G5, G7, G12)', () => {
  it('[G7] a grant\'s rule is one the approval offered: grant.rule naming another (Bash(*)) is refused, nothing granted or answered', async () => {
    const { admin, agent, session } = await setup();
    const asked = await agent.call('question.request', { sessionKey: session.key, approval: bash('git push origin main') });
    const wide = await failure(admin.call('question.resolve', { id: asked.id, answers: { approval: ['Allow'] }, grant: { scope: 'session', rule: 'Bash(*)' } }));
    expect([wide.code, wide.details]).toEqual(['INVALID_REQUEST', [{ path: 'grant.rule', problem: expect.stringContaining('not a rule offered for this request; offered: Bash(git push *)') }]]);
    expect((await admin.call('policy.get', {})).grants).toEqual([]);
    expect((await admin.call('question.get', { id: asked.id })).question.status).toBe('pending');
    // Naming the offered rule is the same as the offer.
    await admin.call('question.resolve', { id: asked.id, answers: { approval: ['Allow'] }, grant: { scope: 'session', rule: 'Bash(git push *)' } });
    expect((await admin.call('policy.get', {})).grants.map((g) => g.rule)).toEqual(['Bash(git push *)']);
  });

  it('[G5][G7] "Always allow in this session" makes a grant: the next identical request is allowed by it, until it is revoked', async () => {
    const { admin, agent, session } = await setup();
    const ask = () => agent.call('question.request', { sessionKey: session.key, approval: bash('npm run build') });
    const first = await ask();
    const { question } = await admin.waitEvent('question.requested', (p) => p.question.id === first.id);
    const offer = question.questions[0].options.find((o) => o.label === 'Always allow in this session')!;
    await admin.call('question.resolve', { id: first.id, answers: { approval: [offer.label] } });
    await admin.waitEvent('policy.grants.updated');
    const decided = (await agent.call('question.waitAnswer', { id: first.id })).decision!;
    expect(decided).toMatchObject({ behavior: 'allow', decidedBy: 'person', grantId: expect.any(String) });

    const { grants } = await admin.call('policy.get', {});
    expect(grants).toEqual([
      expect.objectContaining({ id: decided.grantId, rule: offer.description!.replace('Rule: ', ''), scope: 'session', sessionKey: session.key, grantedBy: 'admin', questionId: first.id }),
    ]);
    // Nothing lasts past 30 days.
    expect(grants[0].expiresAt - grants[0].createdAtMs!).toBe(30 * 24 * 60 * 60 * 1000);

    const second = await ask();
    expect(second.decision).toEqual({ behavior: 'allow', decidedBy: 'grant', rules: [decided.grantId], grantId: decided.grantId });
    const notice = await admin.waitEvent('chat', (p) => p.message.role === 'system');
    expect(notice.message.text).toBe(`✓ Allowed Bash(npm run build) · grant ${decided.grantId}`);
    const granted = (await admin.call('question.get', { id: second.id })).question.questions[0];
    expect(granted.question).toBe(`Bash(npm run build) allowed by grant ${decided.grantId} (${grants[0].rule}).`);

    expect(await admin.call('policy.grant.revoke', { id: decided.grantId! })).toEqual({ revoked: true });
    expect((await admin.call('policy.get', {})).grants).toEqual([]);
    const third = await ask();
    expect(third.status).toBeUndefined();
    await admin.waitEvent('question.requested', (p) => p.question.id === third.id);
  });

  it('[G5][PT5] an offer chosen in a plain reply (its number, typed in the TUI) makes the grant too', async () => {
    const { admin, agent, session } = await setup();
    const { runId } = await agent.call('run.start', { sessionKey: session.key });
    const first = await agent.call('question.request', { sessionKey: session.key, runId, approval: bash('npm run build') });
    await admin.call('chat.send', { sessionKey: session.key, message: '3', idempotencyKey: 'reply-offer-1', replyTo: { questionId: first.id } });
    const waited = await agent.call('question.waitAnswer', { id: first.id });
    expect(waited).toMatchObject({ status: 'answered', answers: { approval: ['Always allow in this session'] }, decision: { behavior: 'allow', grantId: expect.any(String) } });
    expect((await admin.call('policy.get', {})).grants.map((g) => [g.id, g.scope])).toEqual([[waited.decision!.grantId, 'session']]);
  });

  it('[G5] a grant is an allow rule: an ask rule still wins over it', async () => {
    const { admin, agent, session } = await setup();
    const first = await agent.call('question.request', { sessionKey: session.key, approval: bash('git push origin main') });
    await admin.call('question.resolve', { id: first.id, answers: { approval: ['Always allow in this session'] } });
    const second = await agent.call('question.request', { sessionKey: session.key, approval: bash('git push origin main') });
    expect(second.status).toBeUndefined();
  });

  it('[G5][R3] grants outlive a restart (SQLite file)', async () => {
    let { admin, agent, session } = await setup();
    const first = await agent.call('question.request', { sessionKey: session.key, approval: bash('npm run build') });
    await admin.call('question.resolve', { id: first.id, answers: { approval: ['Always allow for this agent for 7 days'] } });
    const dir = t!.dir;
    await t!.close({ keepDir: true });
    t = await startTestGateway({ config: policyConfig, dir });
    admin = await t.connect('admin');
    agent = await t.connect('agent', { clientId: 'agent-client' });
    const { grants } = await admin.call('policy.get', {});
    expect(grants.map((g) => [g.scope, g.agent, g.questionId])).toEqual([['agent', 'agent', first.id]]);
    const next = await agent.call('question.request', { sessionKey: session.key, approval: bash('npm run build') });
    expect(next.decision).toMatchObject({ behavior: 'allow', decidedBy: 'grant', grantId: grants[0].id });
  });

  it('[G12] policy.check takes a tool\'s name: a rule\'s form in `tool` is refused naming the field, not answered ask', async () => {
    const { agent } = await setup();
    const refused = await failure(agent.call('policy.check', { tool: 'Bash(rm -rf /)' }));
    expect(refused.code).toBe('INVALID_REQUEST');
    expect(refused.details).toEqual([{ path: 'tool', problem: expect.stringContaining('is not a tool\'s name') }]);
    const glob = await failure(agent.call('policy.check', { tool: 'mcp__github__*' }));
    expect([glob.code, glob.details]).toEqual(['INVALID_REQUEST', [{ path: 'tool', problem: expect.stringContaining('"mcp__github__*" is not a tool\'s name') }]]);
    expect((await agent.call('policy.check', { tool: 'mcp__github__create_issue' })).decision).toBe('ask');
  });

  it('[G11][Q2] question.request {approval} takes a tool\'s name: a rule\'s form in approval.tool is refused naming the field, nothing asked', async () => {
    const { admin, agent, session } = await setup();
    const refused = await failure(agent.call('question.request', { sessionKey: session.key, approval: { tool: 'Bash(rm -rf /)', input: {} } }));
    expect(refused.code).toBe('INVALID_REQUEST');
    expect(refused.details).toEqual([{ path: 'approval.tool', problem: expect.stringContaining('is not a tool\'s name') }]);
    expect((await admin.call('question.list', { sessionKey: session.key })).questions).toEqual([]);
  });

  it('[G12][A3] only admins read the policy; a grant is revoked by an admin or its maker, anyone else is refused', async () => {
    const { admin, agent, session } = await setup();
    const guest = await t!.connect('guest');
    const reader = await t!.connect('reader');
    const questions = await t!.connect('questions');
    for (const who of [guest, reader, questions, agent]) expect((await failure(who.call('policy.get', {}))).code).toBe('FORBIDDEN');
    expect((await failure(reader.call('policy.check', { tool: 'Bash', input: { command: 'rm -rf /' } }))).code).toBe('FORBIDDEN');
    // An agent checks for itself only.
    expect(await agent.call('policy.check', { tool: 'Bash', input: { command: 'rm -rf /' } })).toEqual({
      decision: 'deny',
      matchedRules: [{ id: 'no-rm', rule: 'Bash(rm -rf *)', decision: 'deny', layer: 'config' }],
    });
    expect((await failure(agent.call('policy.check', { tool: 'Bash', agent: 'agent2' }))).code).toBe('FORBIDDEN');

    const first = await agent.call('question.request', { sessionKey: session.key, approval: bash('npm run build') });
    await questions.call('question.resolve', { id: first.id, answers: { approval: ['Always allow in this session'] } });
    const [grant] = (await admin.call('policy.get', {})).grants;
    expect(grant.grantedBy).toBe('questions');
    // Admins hear of it; nobody else does.
    await admin.waitEvent('policy.grants.updated');
    expect([guest, reader, questions, agent].map((c) => c.eventsNamed('policy.grants.updated').length)).toEqual([0, 0, 0, 0]);

    const refused = await failure(guest.call('policy.grant.revoke', { id: grant.id }));
    expect(refused.code).toBe('FORBIDDEN');
    const unknown = await failure(admin.call('policy.grant.revoke', { id: 'gr-nope' }));
    expect(unknown.code).toBe('INVALID_REQUEST');
    expect(unknown.message).toContain('no grant "gr-nope"');
    expect(await questions.call('policy.grant.revoke', { id: grant.id })).toEqual({ revoked: true });
    // A grant for everyone is an admin's to make.
    const next = await agent.call('question.request', { sessionKey: session.key, approval: bash('npm run lint') });
    const wide = await failure(questions.call('question.resolve', { id: next.id, answers: { approval: ['Allow'] }, grant: { scope: 'everyone' } }));
    expect(wide.code).toBe('FORBIDDEN');
    await admin.call('question.resolve', { id: next.id, answers: { approval: ['Allow'] }, grant: { scope: 'everyone' } });
    expect((await admin.call('policy.get', {})).grants.map((g) => g.scope)).toEqual(['everyone']);
  });
});
