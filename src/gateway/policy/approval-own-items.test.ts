/** G11: an approval asked with the agent's own items (its own ids) is decided like the gateway's own approval item. */
import { afterEach, expect, it } from 'vitest';
import { item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { policyConfig } from '../../testing/policy-config.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const push = { tool: 'Bash', input: { command: 'git push origin main' } };
const own = item({ id: 'deploy', header: 'Push', question: 'Push main to origin?', options: [{ label: 'Allow' }, { label: 'Deny' }] });

it.each([
  ['waiting when it is answered', false],
  ['asking after it was answered', true],
] as const)('[G11][Q2] an approval with the agent\'s own items: waitAnswer carries the person\'s decision (%s)', async (_name, after) => {
  t = await startTestGateway({ config: policyConfig });
  const admin = await t.connect('admin');
  const agent = await t.connect('agent', { clientId: 'agent-client' });
  const { session } = await admin.call('sessions.create', { title: 'Work' });
  const res = await agent.call('question.request', { sessionKey: session.key, approval: push, questions: [own] });
  await admin.waitEvent('question.requested', (p) => p.question.id === res.id);
  const waiting = after ? undefined : agent.call('question.waitAnswer', { id: res.id });
  await admin.call('question.resolve', { id: res.id, answers: { deploy: ['Deny'] } });
  const waited = await (waiting ?? agent.call('question.waitAnswer', { id: res.id, timeoutMs: 0 }));
  expect(waited).toMatchObject({ status: 'answered', answers: { deploy: ['Deny'] } });
  expect(waited.decision).toEqual({ behavior: 'deny', decidedBy: 'person', rules: ['push'], resolvedBy: { identity: 'admin', surface: 'cli', atMs: expect.any(Number) } });
});
