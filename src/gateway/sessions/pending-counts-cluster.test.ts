import { expect, it } from 'vitest';
import type { Session } from '../../protocol/index.ts';
import { clusterPerTest } from '../../testing/gateway-cluster.ts';
import { item } from '../../testing/gateway-harness.ts';
import type { TestClient } from '../../testing/ws-client.ts';

const clusters = clusterPerTest('counts');

const LONG = { timeout: 180_000 };
const countIn = (sessions: Session[], key: string) => sessions.find((s) => s.key === key)?.pendingQuestions;
const toldCounts = (c: TestClient, key: string) =>
  c.events
    .filter((e) => e.event === 'session.updated')
    .map((e) => (e.payload as { session: Session }).session)
    .filter((s) => s.key === key)
    .map((s) => s.pendingQuestions);

it('[A3][D2] on two gateways of one database, a guest\'s counts follow the other gateway\'s asks and answers and never count the privileged ones', LONG, async () => {
  const c = await clusters.start(2);
  const guestA = await c.connect(0, 'guest');
  const admin = await c.connect(0, 'admin');
  const guestB = await c.connect(1, 'guest');
  const agent = await c.connect(1, 'agent');
  const { session } = await guestA.call('sessions.create', { title: 'Own' });
  const ids: string[] = [];
  for (const privileged of [false, true, false, true, true]) {
    const { id } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', ...(privileged ? { privileged } : {}), questions: [item()] });
    ids.push(id);
  }
  // Asked through gateway B: gateway A's list and fan-out count the two open ones, not the three privileged.
  expect(countIn((await guestA.call('sessions.list', {})).sessions, session.key)).toBe(2);
  await guestA.waitEvent('session.updated', (e) => e.session.key === session.key && e.session.pendingQuestions === 2, 60_000);
  // Answered through gateway A: gateway B's list and fan-out follow.
  await admin.call('question.resolve', { id: ids[0], answers: { env: ['Staging'] } });
  expect(countIn((await guestB.call('sessions.list', {})).sessions, session.key)).toBe(1);
  await guestB.waitEvent('session.updated', (e) => e.session.key === session.key && e.session.pendingQuestions === 1, 60_000);
  const cursor = guestB.seqEvents().reduce((top, e) => Math.max(top, e.seq!), guestB.hello!.snapshot.cursor);
  await guestB.close();
  await guestB.waitClose();
  // Away from B: another privileged question and a rename on A; the replay on B counts the one open question.
  await agent.call('question.request', { sessionKey: session.key, mode: 'async', privileged: true, questions: [item()] });
  await admin.call('sessions.update', { sessionKey: session.key, title: 'Back' });
  const back = await c.connect(1, 'guest', { resume: { cursor } });
  expect(back.hello!.resumed).toBe(true);
  const replayed = await back.waitEvent('session.updated', (e) => e.session.key === session.key && e.session.title === 'Back', 60_000);
  expect(replayed.session.pendingQuestions).toBe(1);
  for (const seen of [guestA, back]) expect(Math.max(...toldCounts(seen, session.key)), 'a count above what the guest may see').toBeLessThanOrEqual(2);
});
