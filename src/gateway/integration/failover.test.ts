import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../agent/sdk.ts';
import type { GatewayClient } from '../../client/client.ts';
import { createNodeClient } from '../../client/node.ts';
import { clusterPerTest, type Cluster } from '../../testing/gateway-cluster.ts';
import { tokenOf, type Who } from '../../testing/gateway-harness.ts';

const clusters = clusterPerTest('failover');
const clients: { close(): void }[] = [];

afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});

/** A client that starts on gateway `first` and moves on through the others (D4). */
async function clientOf(c: Cluster, who: Who, first: number): Promise<GatewayClient> {
  const urls = c.gateways.map((_, i) => c.gateways[(first + i) % c.gateways.length].wsUrl);
  const client = createNodeClient({ url: urls, token: tokenOf(who), client: { name: `load-${who}-${first}`, mode: 'cli' }, backoff: { initialMs: 200, maxMs: 1000 } });
  clients.push(client);
  await client.start();
  return client;
}

describe('a gateway killed under load (D2, D4)', () => {
  it('[D4][R3] SIGKILL of one of three gateways under load loses nothing acknowledged and doubles nothing', { timeout: 180_000 }, async () => {
    const c = await clusters.start(3);
    const setup = await clientOf(c, 'admin', 1);
    const { session } = await setup.request('sessions.create', { title: 'Load' });
    const senders = await Promise.all([0, 1, 2].map((i) => clientOf(c, 'admin', i)));
    const asker = await clientOf(c, 'agent', 0);

    const ackedMessages: string[] = [];
    const ackedQuestions: string[] = [];
    const failures: string[] = [];
    let running = true;
    const sendLoop = async (client: GatewayClient, i: number) => {
      for (let n = 0; running; n++) {
        const key = `load-${i}-${n}-key`;
        try {
          await client.request('chat.send', { sessionKey: session.key, message: key, idempotencyKey: key }, { timeoutMs: 60_000 });
          ackedMessages.push(key);
        } catch (err) {
          failures.push(`${key}: ${(err as Error).message}`);
        }
      }
    };
    const askLoop = async () => {
      for (let n = 0; running; n++) {
        const id = `load-q-${n}`;
        try {
          await asker.request('question.request', { id, sessionKey: session.key, mode: 'async', questions: [{ id: 'pick', header: 'Pick', question: `Which ${n}?`, options: [{ label: 'A' }, { label: 'B' }] }] }, { timeoutMs: 60_000 });
          ackedQuestions.push(id);
        } catch (err) {
          failures.push(`${id}: ${(err as Error).message}`);
        }
      }
    };
    const loops = [...senders.map(sendLoop), askLoop()];
    // Kill once load is flowing through every gateway.
    const before = () => ackedMessages.length + ackedQuestions.length;
    // Waits on the acknowledgements themselves, with a bound far past what a loaded machine needs for 30 of them.
    const acked = (n: number, what: string) => expect.poll(before, { timeout: 60_000, interval: 50, message: what }).toBeGreaterThanOrEqual(n);
    await acked(30, 'load flowing before the kill');
    await c.kill(0);
    const atKill = before();
    await acked(atKill + 30, 'load flowing after the kill');
    running = false;
    await Promise.all(loops);

    expect(failures).toEqual([]);
    const reader = await clientOf(c, 'admin', 2);
    const texts: string[] = [];
    let beforeId: string | undefined;
    for (;;) {
      const page = await reader.request('chat.history', { sessionKey: session.key, limit: 500, ...(beforeId ? { before: beforeId } : {}) });
      texts.unshift(...page.messages.map((m) => m.text));
      if (!page.hasMore) break;
      beforeId = page.messages[0].id;
    }
    expect(new Set(texts).size, 'no message twice').toBe(texts.length);
    expect([...texts].sort()).toEqual([...ackedMessages].sort());
    const { questions } = await reader.request('question.list', { sessionKey: session.key });
    expect(questions.map((q) => q.id).sort()).toEqual([...ackedQuestions].sort());
  });

  it('[D4] the SDK given several URLs asks through one gateway, loses it, and still gets the answer given on another', { timeout: 120_000 }, async () => {
    const c = await clusters.start(2);
    const agent = await connect({ url: c.gateways.map((g) => g.wsUrl), token: tokenOf('agent'), name: 'failover-agent' });
    clients.push(agent);
    const operator = await clientOf(c, 'admin', 1);
    const asked = new Promise<string>((resolve) => operator.on('question.requested', (p) => resolve(p.question.id)));
    const answer = agent.askUser({ questions: [{ id: 'ship', question: 'Ship it?', header: 'Ship', options: [{ label: 'Yes' }, { label: 'No' }] }] });
    const id = await asked;
    await c.kill(0);
    await operator.request('question.resolve', { id, answers: { ship: ['Yes'] } });
    const result = await answer;
    expect(JSON.stringify(result)).toContain('Yes');
  });
});
