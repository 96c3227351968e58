/** Q5 for K1: two people providing one secret request at once: one value is stored, the other is told it already ended. */
import { afterEach, expect, it } from 'vitest';
import type { GatewayConfig } from '../config.ts';
import { startTestGateway, testConfig, type TestGateway } from '../../testing/gateway-harness.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const config: GatewayConfig = {
  identities: testConfig.identities.map((i) => (i.id === 'agent' ? { ...i, scopes: ['agent.run', 'agent.secrets'] } : i)),
};

it('[K1][Q5] two provides of one request at once: one is stored, the other answers QUESTION_ALREADY_TERMINAL, and the value read is the stored one', async () => {
  t = await startTestGateway({ config });
  const admin = await t.connect('admin');
  const questions = await t.connect('questions');
  const agent = await t.connect('agent');
  const { session } = await admin.call('sessions.create', {});
  const { id } = await agent.call('secret.request', { name: 'DEPLOY_TOKEN', description: 'To deploy', sessionKey: session.key });
  const tries = await Promise.allSettled([admin.call('secret.provide', { id, value: 'value-from-admin' }), questions.call('secret.provide', { id, value: 'value-from-questions' })]);
  const stored = tries.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
  expect(stored).toHaveLength(1);
  const refused = tries.find((r) => r.status === 'rejected') as PromiseRejectedResult;
  expect(refused.reason).toMatchObject({ code: 'QUESTION_ALREADY_TERMINAL', details: { id, status: 'stored' } });
  const value = stored[0] === 0 ? 'value-from-admin' : 'value-from-questions';
  expect(await agent.call('secret.get', { name: 'DEPLOY_TOKEN' })).toMatchObject({ value });
  expect(admin.eventsNamed('secret.resolved').filter((e) => e.id === id)).toHaveLength(1);
});
