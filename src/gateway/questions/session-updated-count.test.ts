import { afterEach, expect, it } from 'vitest';
import type { TestClient } from '../../testing/ws-client.ts';
import { item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const lunch = item({ id: 'lunch', header: 'Lunch', question: 'What for lunch?', options: [{ label: 'Pizza' }, { label: 'Sushi' }] });

/** The session.updated events a client got for this session, up to a marker: a title change sent after (events keep their order). */
async function updatesUntilMarker(owner: TestClient, clients: TestClient[], sessionKey: string, title: string) {
  await owner.call('sessions.update', { sessionKey, title });
  for (const c of clients) await c.waitEvent('session.updated', (e) => e.session.key === sessionKey && e.session.title === title, 20_000);
  return clients.map((c) =>
    c.events
      .filter((e) => e.event === 'session.updated')
      .map((e) => (e.payload as { session: { key: string; title?: string; pendingQuestions: number; lastMessageAtMs: number | null } }).session)
      .filter((s) => s.key === sessionKey && s.title !== title),
  );
}

type Answer = (admin: TestClient, id: string, sessionKey: string) => Promise<unknown>;

/** Asks an async question, answers it with `answer`, and returns the session.updated events each reader got for it. */
async function answeredUpdates(answer: Answer) {
  t = await startTestGateway();
  const admin = await t.connect('admin');
  const reader = await t.connect('reader');
  const agent = await t.connect('agent');
  const { session } = await admin.call('sessions.create', { title: 'Lunch' });
  const { id } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
  await updatesUntilMarker(admin, [admin, reader], session.key, 'asked');
  admin.events.length = 0;
  reader.events.length = 0;
  await answer(admin, id, session.key);
  const { messages } = await admin.call('chat.history', { sessionKey: session.key });
  const replyAt = messages[messages.length - 1].createdAtMs;
  const listed = (await reader.call('sessions.list', {})).sessions.find((s) => s.key === session.key);
  expect(listed).toMatchObject({ pendingQuestions: 0, lastMessageAtMs: replyAt });
  return { replyAt, updates: await updatesUntilMarker(admin, [admin, reader], session.key, 'answered') };
}

it('[C5][Q9] an async question answered with question.resolve sends each reader of its session one session.updated, with the count and the reply as last message', async () => {
  const { replyAt, updates } = await answeredUpdates((admin, id) => admin.call('question.resolve', { id, answers: { lunch: ['Sushi'] } }));
  // One each (two before: the reply's and the count's), and it carries both changes.
  const one = [expect.objectContaining({ pendingQuestions: 0, lastMessageAtMs: replyAt })];
  expect(updates).toEqual([one, one]);
});

it('[C5][Q9] an async question answered by a chat reply sends each reader of its session one session.updated, with the count and the reply as last message', async () => {
  const { replyAt, updates } = await answeredUpdates((admin, id, sessionKey) =>
    admin.call('chat.send', { sessionKey, message: 'Sushi', idempotencyKey: 'reply-key-0001', replyTo: { questionId: id, answers: { lunch: ['Sushi'] } } }),
  );
  const one = [expect.objectContaining({ pendingQuestions: 0, lastMessageAtMs: replyAt })];
  expect(updates).toEqual([one, one]);
});
