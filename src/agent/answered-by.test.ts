/** E8: the agent hears who answered a routed question, with their name and surface, and the escalation trail. */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway, tokenOf, type TestGateway } from '../testing/gateway-harness.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { connectPerson, routingConfig } from '../testing/routing-gateway.ts';
import { decideTool } from './approvals.ts';
import { connect, type Agent } from './sdk.ts';

let t: TestGateway | undefined;
let agent: Agent | undefined;
afterEach(async () => {
  agent?.close();
  agent = undefined;
  await t?.close();
  t = undefined;
});

async function setup() {
  t = await startTestGateway({ config: routingConfig, clock: new FakeClock() });
  const admin = await t.connect('admin');
  const ana = await connectPerson(t, 'ana');
  const { session } = await admin.call('sessions.create', { title: 'Work' });
  agent = await connect({ url: t.gw.wsUrl, token: tokenOf('agent'), name: 'answered-by' });
  return { ana, session };
}

describe('the agent hears who answered (E8)', () => {
  it('[E8] askUser of a routed question returns resolvedBy with the display name and surface, and the route', async () => {
    const { ana, session } = await setup();
    const asked = (agent as Agent).askUser({ questions: [{ id: 'env', header: 'Env', question: 'Where to?', options: [{ label: 'Staging' }, { label: 'Production' }] }] }, { sessionKey: session.key, askSource: 'sdk' });
    const { question } = await ana.waitEvent('question.requested');
    expect(question.route?.escalation).toBe('team');
    await ana.call('question.resolve', { id: question.id, answers: { [question.questions[0].id]: ['Staging'] }, surface: 'tui' });
    const result = await asked;
    expect(result).toMatchObject({ status: 'answered', resolvedBy: { identity: 'ana', name: 'Ana', surface: 'tui' }, route: { escalation: 'team', notified: ['ana'] } });
  });

  it('[E8][E1] a hook approval is routed by its source; a Deny reaches the agent naming who denied it', async () => {
    const { session } = await setup();
    const bo = await connectPerson(t as TestGateway, 'bo');
    const decided = decideTool(agent as Agent, { toolName: 'Bash', toolInput: { command: 'git push origin main' } }, { sessionKey: session.key, askSource: 'hook:claude-code' });
    const { question } = await bo.waitEvent('question.requested');
    expect(question.route).toMatchObject({ escalation: 'hooks', notified: ['bo'] });
    await bo.call('question.resolve', { id: question.id, answers: { approval: ['Deny'] } });
    const outcome = await decided;
    expect(outcome.decision).toEqual({ behavior: 'deny', message: expect.stringMatching(/\(denied by Bo\)$/) });
  });
});
