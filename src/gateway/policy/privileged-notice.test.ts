import { describe, expect, it } from 'vitest';
import { configWithQuestionsReader, gatewayPerTest, type Viewer } from '../../testing/gateway-harness.ts';
import type { TestClient } from '../../testing/ws-client.ts';
import { policyConfig } from '../../testing/policy-config.ts';

const gateway = gatewayPerTest();

/** May not see a privileged question (A3): its decision's notice is not theirs either. */
const REFUSED: Viewer[] = ['guest', 'reader', 'writer'];
/** operator.admin, operator.read with operator.questions, and the asking agent. */
const GRANTED: Viewer[] = ['admin', 'qreader', 'agent'];
const config = { ...policyConfig, identities: configWithQuestionsReader.identities };
const SECRET = 'npm run test secret-suite';

/** The asking agent connects as client `agent-client`, so its subscription (C6) holds on every connection. */
const connect = (who: Viewer, extra: { resume?: { cursor: number } } = {}) => gateway.t.connect(who, who === 'agent' ? { clientId: 'agent-client', ...extra } : extra);

/** A guest's session where the agent's privileged approval is allowed by the policy, between two ordinary messages. */
async function world() {
  await gateway.start({ config });
  const c = {} as Record<Viewer, TestClient>;
  for (const who of [...REFUSED, ...GRANTED]) c[who] = await connect(who);
  const sessionKey = (await c.guest.call('sessions.create', { title: 'guest' })).session.key;
  await c.agent.call('agent.subscribe', { sessionKey });
  await c.guest.call('chat.send', { sessionKey, message: 'before', idempotencyKey: 'notice-before' });
  const cursor = c.admin.hello!.snapshot.cursor;
  const decided = await c.agent.call('question.request', { sessionKey, privileged: true, approval: { tool: 'Bash', input: { command: SECRET } } });
  expect(decided.decision).toMatchObject({ behavior: 'allow', decidedBy: 'policy' });
  const last = await c.guest.call('chat.send', { sessionKey, message: 'after', idempotencyKey: 'notice-after' });
  for (const who of [...REFUSED, ...GRANTED]) await c[who].waitEvent('chat', (e) => e.message.id === last.messageId);
  return { c, sessionKey, cursor };
}

const texts = (messages: { text: string }[]) => messages.map((m) => m.text);

describe('[A3][G6] the notice of a privileged approval decided by the policy', () => {
  it('[A3][G6] reaches chat.history, chat events and search only of those who may see the question', async () => {
    const { c, sessionKey } = await world();
    const notice = `✓ Allowed Bash(${SECRET}) · rule npm-tests`;
    for (const who of GRANTED) {
      expect(texts((await c[who].call('chat.history', { sessionKey })).messages), who).toEqual(['before', notice, 'after']);
      expect(c[who].eventsNamed('chat').map((e) => e.message.text), who).toContain(notice);
    }
    for (const who of REFUSED) {
      expect(texts((await c[who].call('chat.history', { sessionKey })).messages), who).toEqual(['before', 'after']);
      expect(c[who].rawFrames.filter((f) => f.includes('secret-suite')), who).toEqual([]);
      expect((await c[who].call('search', { query: 'secret-suite' })).results, who).toEqual([]);
    }
  });

  it('[A3][R2] a resume from before it replays it only to those who may see the question', async () => {
    const { cursor } = await world();
    for (const who of [...REFUSED, ...GRANTED]) {
      const back = await connect(who, { resume: { cursor } });
      await back.waitEvent('chat', (e) => e.message.text === 'after');
      const seen = back.rawFrames.some((f) => f.includes('secret-suite'));
      expect(seen, who).toBe(GRANTED.includes(who));
    }
  });
});
