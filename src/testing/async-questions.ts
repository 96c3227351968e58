import { gatewayPerTest, item, type startTestGateway } from './gateway-harness.ts';

// What the async-question tests (src/gateway/questions/questions-async-*.test.ts) share.

export const lunch = item({ id: 'lunch', header: 'Lunch', question: 'What for lunch?', options: [{ label: 'Pizza' }, { label: 'Sushi' }, { label: 'Salad' }] });
export const notify = item({ id: 'notify', header: 'Notify', question: 'Who to tell?', multiSelect: true, options: [{ label: 'Email' }, { label: 'Slack' }] });

/** Each test's gateway (closed after it) and `setup`, which starts one with an admin, an agent and a new session. */
export function asyncGatewayPerTest() {
  const gateway = gatewayPerTest();
  async function setup(opts: Parameters<typeof startTestGateway>[0] = {}) {
    const t = await gateway.start(opts);
    const admin = await t.connect('admin');
    const agent = await t.connect('agent');
    const { session } = await admin.call('sessions.create', {});
    return { admin, agent, session };
  }
  return { gateway, setup };
}
