import { expect } from 'vitest';
import { item, type TestGateway } from './gateway-harness.ts';
import type { TestClient } from './ws-client.ts';

/**
 * Q4/Q5 with requests sent one after another without waiting for answers (one socket): each read sees the changes the
 * client asked for before it, whatever the store, and a long wait the client left running holds up nothing after it.
 * Rounds repeat because which handler gets to the store first was a matter of timing.
 */
export async function readsSeeEarlierChanges(t: TestGateway): Promise<void> {
  const admin = await t.connect('admin');
  const agent = await t.connect('agent', { clientId: 'agent-client' });
  for (let round = 0; round < 12; round++) {
    const { session } = await admin.call('sessions.create', { title: `Pipelined ${round}` });
    const asked = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    const cancel = agent.call('question.resolve', { id: asked.id, cancel: true, reason: 'changed my mind' });
    const poll = agent.call('question.waitAnswer', { id: asked.id, timeoutMs: 0 });
    expect(await cancel).toMatchObject({ status: 'cancelled' });
    expect(await poll).toEqual({ status: 'cancelled', reason: 'changed my mind' });

    // A question asked and cancelled at once, under an id of the asker's own.
    const own = `q_pipelined_${round}_${session.key}`;
    const ask = agent.call('question.request', { id: own, sessionKey: session.key, mode: 'async', questions: [item()] });
    const withdraw = agent.call('question.resolve', { id: own, cancel: true });
    expect((await ask).id).toBe(own);
    expect(await withdraw).toMatchObject({ status: 'cancelled' });

    const second = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    const answer = admin.call('question.resolve', { id: second.id, answers: { env: ['Staging'] } });
    const get = admin.call('question.get', { id: second.id });
    const listed = admin.call('question.list', { sessionKey: session.key, status: 'pending' });
    await answer;
    expect((await get).question).toMatchObject({ status: 'answered', answers: { env: ['Staging'] } });
    expect((await listed).questions).toEqual([]);
  }
  // A long wait changes nothing: a request sent after it is answered while it still waits.
  const { session } = await admin.call('sessions.create', { title: 'Waiting' });
  const open = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [item()] });
  let waited = false;
  const wait = agent.call('question.waitAnswer', { id: open.id, timeoutMs: 60_000 }).then((r) => ((waited = true), r));
  expect((await agent.call('question.get', { id: open.id })).question.status).toBe('pending');
  expect(waited).toBe(false);
  await admin.call('question.resolve', { id: open.id, answers: { env: ['Production'] } });
  expect(await wait).toEqual({ status: 'answered', answers: { env: ['Production'] } });
}

/**
 * A6: the same `sessions.create` idempotency key sent on two sockets of one identity at once (a retry racing its
 * original, on one gateway or two) makes one session, and both get it.
 */
export async function oneSessionPerKey(one: TestClient, two: TestClient): Promise<void> {
  for (let i = 0; i < 16; i++) {
    const key = `race-session-${i}-000`;
    const made = (title: string, c: TestClient) => c.call('sessions.create', { title, idempotencyKey: key });
    const [a, b] = await Promise.all([made(`Race ${i}`, one), made(`Race ${i}`, two)]);
    expect(b.session.key).toBe(a.session.key);
  }
  const raced = (await two.call('sessions.list', {})).sessions.filter((s) => s.title.startsWith('Race '));
  expect(raced).toHaveLength(16);
}
