import { describe, expect, it } from 'vitest';
import { failure, item, gatewayPerTest } from '../../testing/gateway-harness.ts';
import { policyConfig } from '../../testing/policy-config.ts';
import { routingConfig } from '../../testing/routing-gateway.ts';

const gateway = gatewayPerTest();
const login = { id: 'login', header: 'Sign in', question: 'Sign in to shop-tools', kind: 'link' as const, url: 'https://auth.example.com/login' };
/** What an MCP server asks waits for Bo (E1: the proxy's questions route as kind elicitation). */
const elicitationsToBo = { ...routingConfig, routing: { escalations: { servers: { steps: [{ notify: ['identity:bo'], wait: '5m' }] } }, routes: [{ match: { kind: 'elicitation' as const }, escalation: 'servers' }] } };

describe('what an asker does to its own question: withdraw it, or close its link Done (X5)', () => {
  it('[Q1][X6] a hook or the MCP proxy withdrawing its question names itself as the surface; the policy\'s surface is no asker\'s', async () => {
    const { admin, agent } = await gateway.withSession();
    const { id } = await agent.call('question.request', { questions: [item()] });
    const asPolicy = await failure(agent.call('question.resolve', { id, cancel: true, surface: 'policy' }));
    expect(asPolicy.details).toEqual([{ path: 'surface', problem: expect.stringContaining('policy') }]);
    await agent.call('question.resolve', { id, cancel: true, reason: 'aborted', surface: 'hook' });
    expect((await admin.call('question.get', { id })).question.resolvedBy).toMatchObject({ identity: 'agent', surface: 'hook' });
  });

  it('[X5][Q1] the MCP proxy answers its own link question Done when the server says the step is complete: answered, by mcp-proxy', async () => {
    const { admin, agent, session } = await gateway.withSession();
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [login] });
    const resolved = admin.waitEvent('question.resolved', (p) => p.id === id);
    expect(await agent.call('question.resolve', { id, answers: { login: ['done'] }, surface: 'mcp-proxy' })).toEqual({ status: 'answered', answers: { login: ['Done'] } });
    expect(await resolved).toMatchObject({ status: 'answered', answers: { login: ['Done'] }, resolvedBy: { identity: 'agent', surface: 'mcp-proxy' } });
  });

  it('[A3][RU3] an asker answers nothing else of its own: not Decline, not a choice, not a prompt mixing a link with a choice', async () => {
    const { agent, session } = await gateway.withSession();
    const link = await agent.call('question.request', { sessionKey: session.key, questions: [login] });
    expect((await failure(agent.call('question.resolve', { id: link.id, answers: { login: ['Decline'] } }))).code).toBe('FORBIDDEN');
    expect((await failure(agent.call('question.resolve', { id: link.id, skip: true }))).code).toBe('FORBIDDEN');
    await agent.call('question.resolve', { id: link.id, cancel: true });
    const choice = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    expect((await failure(agent.call('question.resolve', { id: choice.id, answers: { env: ['Staging'] } }))).code).toBe('FORBIDDEN');
    await agent.call('question.resolve', { id: choice.id, cancel: true });
    const mixed = await agent.call('question.request', { sessionKey: session.key, questions: [login, item()] });
    expect((await failure(agent.call('question.resolve', { id: mixed.id, answers: { login: ['Done'], env: ['Done'] } }))).code).toBe('FORBIDDEN');
  });

  it('[X5][E3] a routed elicitation\'s link closes Done by its asker, though the route waits for someone else', async () => {
    const { admin, agent, session } = await gateway.withSession({ config: elicitationsToBo });
    const { id } = await agent.call('question.request', { sessionKey: session.key, elicitation: true, source: 'mcp-proxy:shop-tools', questions: [login] });
    expect((await admin.call('question.get', { id })).question.route).toMatchObject({ notified: ['bo'] });
    expect(await agent.call('question.resolve', { id, answers: { login: ['Done'] }, surface: 'mcp-proxy' })).toEqual({ status: 'answered', answers: { login: ['Done'] } });
    expect((await admin.call('question.get', { id })).question).toMatchObject({ status: 'answered', resolvedBy: { identity: 'agent', surface: 'mcp-proxy' } });
  });

  it('[Q1] an asker names only an asker\'s surface (sdk, hook, mcp-proxy) on its own cancel or Done, never a person\'s', async () => {
    const { admin, agent, session } = await gateway.withSession();
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [login] });
    for (const surface of ['control-ui', 'tui', 'channel:telegram']) {
      const done = await failure(agent.call('question.resolve', { id, answers: { login: ['Done'] }, surface }));
      expect([done.code, done.details]).toEqual(['INVALID_REQUEST', [{ path: 'surface', problem: expect.stringContaining(surface) }]]);
      const cancel = await failure(agent.call('question.resolve', { id, cancel: true, surface }));
      expect([cancel.code, cancel.details]).toEqual(['INVALID_REQUEST', [{ path: 'surface', problem: expect.stringContaining(surface) }]]);
    }
    expect((await admin.call('question.get', { id })).question.status).toBe('pending');
    // A person names where they answered from, any surface but the policy's.
    expect((await failure(admin.call('question.resolve', { id, skip: true, surface: 'policy' }))).details).toEqual([{ path: 'surface', problem: expect.stringContaining('policy') }]);
    await admin.call('question.resolve', { id, skip: true, surface: 'channel:telegram' });
    expect((await admin.call('question.get', { id })).question.resolvedBy).toMatchObject({ identity: 'admin', surface: 'channel:telegram' });
  });

  it('[Q9] an asker never closes Done an async link question: its answer is the person\'s message in the session', async () => {
    const { admin, agent, session } = await gateway.withSession();
    const later = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [login] });
    expect((await failure(agent.call('question.resolve', { id: later.id, answers: { login: ['Done'] } }))).code).toBe('FORBIDDEN');
    expect((await admin.call('question.get', { id: later.id })).question.status).toBe('pending');
  });

  it('[G11] an asker never decides its own approval, though the agent brought a link item for it', async () => {
    const { admin, agent, session } = await gateway.withSession({ config: policyConfig });
    const push = { tool: 'Bash', input: { command: 'git push origin main' } };
    const approval = await agent.call('question.request', { sessionKey: session.key, approval: push, questions: [login] });
    expect((await failure(agent.call('question.resolve', { id: approval.id, answers: { login: ['Done'] } }))).code).toBe('FORBIDDEN');
    expect((await admin.call('question.get', { id: approval.id })).question.status).toBe('pending');
  });
});
