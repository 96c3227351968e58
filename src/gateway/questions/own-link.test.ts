import { describe, expect, it } from 'vitest';
import { failure, item, gatewayPerTest } from '../../testing/gateway-harness.ts';

const gateway = gatewayPerTest();
const login = { id: 'login', header: 'Sign in', question: 'Sign in to shop-tools', kind: 'link' as const, url: 'https://auth.example.com/login' };

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
});
