import { afterEach, beforeEach, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../testing/gateway-cluster.ts';
import { item } from '../../testing/gateway-harness.ts';
import { freshSchema, type TestSchema } from '../../testing/postgres.ts';
import type { TestClient } from '../../testing/ws-client.ts';
import type { ChatMessage } from '../../protocol/session.ts';

// A4 for events another gateway committed: they reach this gateway from the commit's notification (its events as
// stored, told; numbering.ts), and each connection here gets only what its identity may see (A3-A6), as if committed here.
let schema: TestSchema;
let cluster: Cluster | undefined;
beforeEach(async () => {
  schema = await freshSchema('followvis');
});
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
  await schema.drop();
});

const sessionsIn = (c: TestClient) => [...new Set(c.seqEvents().flatMap((e) => sessionOf(e.payload)))];
function sessionOf(payload: unknown): string[] {
  const p = payload as { session?: { key: string }; message?: { sessionKey: string }; question?: { sessionKey?: string }; sessionKey?: string };
  const key = p.session?.key ?? p.message?.sessionKey ?? p.question?.sessionKey ?? p.sessionKey;
  return key ? [key] : [];
}

it("[A3][A4][A6][D2] another gateway's events reach each connection here only as its identity may see them", { timeout: 120_000 }, async () => {
  cluster = await startCluster(2, schema.url);
  const c = cluster;
  // Everything is committed through gateway 0; everyone watching is on gateway 1.
  const admin0 = await c.connect(0, 'admin');
  const agent0 = await c.connect(0, 'agent');
  const guest0 = await c.connect(0, 'guest');
  const watchers = { admin: await c.connect(1, 'admin'), reader: await c.connect(1, 'reader'), guest: await c.connect(1, 'guest'), guest2: await c.connect(1, 'guest2'), agent2: await c.connect(1, 'agent2') };
  const { session: shared } = await admin0.call('sessions.create', { title: 'Admin made' });
  const { session: own } = await guest0.call('sessions.create', { title: 'Guest made' });
  const inShared = await agent0.call('question.request', { sessionKey: shared.key, mode: 'async', questions: [item()] });
  const inOwn = await agent0.call('question.request', { sessionKey: own.key, mode: 'async', questions: [item()] });
  const privileged = await agent0.call('question.request', { sessionKey: own.key, mode: 'async', privileged: true, questions: [item()] });
  const sessionless = await agent0.call('question.request', { mode: 'async', questions: [item()] });
  // A message new in its commit: it goes out with its chat event's seq, not the one it was written with.
  const sent = await admin0.call('chat.send', { sessionKey: shared.key, message: 'from gateway 0', idempotencyKey: 'follow-vis-01' });
  await guest0.call('question.resolve', { id: inOwn.id, answers: { env: ['Staging'] } });
  const last = await admin0.call('chat.send', { sessionKey: own.key, message: 'last', idempotencyKey: 'follow-vis-02' });
  // Events go out here in seq order to every connection at once: once the admin has the last, each has all it gets.
  await watchers.admin.waitEvent('chat', (p) => p.message.id === last.messageId, 20_000);

  const asked = (w: TestClient) => w.eventsNamed('question.requested').map((p) => p.question.id);
  expect(asked(watchers.admin)).toEqual([inShared.id, inOwn.id, privileged.id, sessionless.id]);
  // A3: the guest sees the questions of the session it created, not the privileged one, the others' or the sessionless.
  expect(asked(watchers.guest)).toEqual([inOwn.id]);
  expect(watchers.guest.eventsNamed('question.resolved').map((p) => p.id)).toEqual([inOwn.id]);
  expect(sessionsIn(watchers.guest)).toEqual([own.key]);
  // A3: reading every session shows no question; A4: another guest and an agent the sessions are not bound to (A6) get nothing.
  expect(asked(watchers.reader)).toEqual([]);
  expect(watchers.reader.eventsNamed('question.resolved')).toEqual([]);
  expect(sessionsIn(watchers.reader).sort()).toEqual([shared.key, own.key].sort());
  expect(watchers.guest2.seqEvents()).toEqual([]);
  expect(watchers.agent2.seqEvents()).toEqual([]);
  // C2: the message as told carries its chat event's seq, for each who may read it.
  for (const w of [watchers.admin, watchers.reader]) {
    const chat = w.seqEvents().find((e) => e.event === 'chat' && (e.payload as { message: ChatMessage }).message.id === sent.messageId);
    expect((chat?.payload as { message: ChatMessage }).message.seq).toBe(chat?.seq);
    expect(chat?.seq).toBe(sent.seq);
  }
});
