import { describe, expect, it } from 'vitest';
import { outcome as code, connectEach, EVERYONE as ALL, gatewayPerTest, item, testConfig, tokenOf, type Who } from '../testing/gateway-harness.ts';
import type { TestClient } from '../testing/ws-client.ts';

const gateway = gatewayPerTest();

/**
 * Every session and question says "zebra": the guest's session, guest2's, a privileged question and its async reply in
 * the guest's session, a sessionless question, and agent2's own sessionless question.
 */
async function world(memory = false) {
  const c = await connectEach(await gateway.start({ memory }), ALL);
  const guestSession = (await c.guest.call('sessions.create', { title: 'zebra crossing' })).session.key;
  const foreignSession = (await c.guest2.call('sessions.create', { title: 'zebra stripes' })).session.key;
  const guestMessage = (await c.guest.call('chat.send', { sessionKey: guestSession, message: 'a zebra in my session', idempotencyKey: 'key-guest-1' })).messageId;
  const foreignMessage = (await c.guest2.call('chat.send', { sessionKey: foreignSession, message: 'a zebra elsewhere', idempotencyKey: 'key-guest2-1' })).messageId;
  const zebra = item({ id: 'zoo', header: 'Zoo', question: 'Which zebra?', options: [{ label: 'Plains' }, { label: 'Mountain' }] });
  const ask = (who: TestClient, params: Record<string, unknown>) => who.call('question.request', { mode: 'async', questions: [zebra], ...params }).then((r) => r.id);
  const q = {
    guest: await ask(c.agent, { sessionKey: guestSession }),
    privileged: await ask(c.agent, { sessionKey: guestSession, privileged: true }),
    sessionless: await ask(c.agent, {}),
    agent2: await ask(c.agent2, {}),
  };
  // The privileged question's answer, typed by an admin: a message only those who may see the question may find (A3).
  const privilegedReply = (
    await c.admin.call('chat.send', { sessionKey: guestSession, message: '> Zoo\nMountain zebra, secretly', idempotencyKey: 'key-admin-1', replyTo: { questionId: q.privileged } })
  ).messageId;
  return { c, q, guestSession, foreignSession, guestMessage, foreignMessage, privilegedReply };
}

const found = async (client: TestClient, query: string, limit?: number) =>
  (await client.call('search', { query, ...(limit ? { limit } : {}) })).results.map((r) => `${r.kind}:${r.id}`).sort();

describe('search (U19)', () => {
  it.each([false, true])('[U19][A3][A6] each identity finds exactly what it may see, and nothing else (memory store: %s)', async (memory) => {
    const w = await world(memory);
    const s = (key: string) => `session:${key}`;
    const m = (id: string) => `message:${id}`;
    const qn = (id: string) => `question:${id}`;
    const reply = m(w.privilegedReply);
    const everything = [s(w.guestSession), s(w.foreignSession), m(w.guestMessage), m(w.foreignMessage), reply, qn(w.q.guest), qn(w.q.privileged), qn(w.q.sessionless), qn(w.q.agent2)];
    const expected: Record<Who, string[]> = {
      admin: everything,
      // operator.questions reads no session: every question, no title, no message.
      questions: [qn(w.q.guest), qn(w.q.privileged), qn(w.q.sessionless), qn(w.q.agent2)],
      // A guest: its own session and its questions, never a privileged or sessionless one, never another guest's.
      guest: [s(w.guestSession), m(w.guestMessage), qn(w.q.guest)],
      guest2: [s(w.foreignSession), m(w.foreignMessage)],
      // Readers of every session see every title and message, and no question.
      reader: [s(w.guestSession), s(w.foreignSession), m(w.guestMessage), m(w.foreignMessage)],
      writer: [s(w.guestSession), s(w.foreignSession), m(w.guestMessage), m(w.foreignMessage)],
      // An agent: the sessions bound to it (every one here: it is the default agent) and the questions it asked.
      agent: [s(w.guestSession), s(w.foreignSession), m(w.guestMessage), m(w.foreignMessage), reply, qn(w.q.guest), qn(w.q.privileged), qn(w.q.sessionless)],
      agent2: [qn(w.q.agent2)],
    };
    for (const who of ALL) expect(await found(w.c[who], 'zebra', 50), who).toEqual([...expected[who]].sort());
    // The privileged reply, and the answer it gave its question: found by those who may see that question, by no one else.
    for (const who of ALL) {
      const want = { admin: [reply, qn(w.q.privileged)], agent: [reply, qn(w.q.privileged)], questions: [qn(w.q.privileged)] }[who as string] ?? [];
      expect(await found(w.c[who], 'secretly'), who).toEqual([...want].sort());
    }
  });

  it('[U19][A3] a guest that also reads every session finds questions in the sessions it created, and no others', async () => {
    const readGuest = { id: 'guest', token: tokenOf('guest'), role: 'operator' as const, scopes: ['operator.read' as const, 'operator.sessions.write' as const] };
    const t = await gateway.start({ config: { ...testConfig, identities: testConfig.identities.map((i) => (i.id === 'guest' ? readGuest : i)) } });
    const guest = await t.connect('guest');
    const admin = await t.connect('admin');
    const agent = await t.connect('agent');
    const own = (await guest.call('sessions.create', { title: 'mine' })).session.key;
    const other = (await admin.call('sessions.create', { title: 'theirs' })).session.key;
    const zebra = item({ id: 'zoo', header: 'Zoo', question: 'Which okapi?', options: [{ label: 'Plains' }, { label: 'Mountain' }] });
    const ownQuestion = (await agent.call('question.request', { sessionKey: own, mode: 'async', questions: [zebra] })).id;
    await agent.call('question.request', { sessionKey: other, mode: 'async', questions: [zebra] });
    expect(await found(guest, 'okapi')).toEqual([`question:${ownQuestion}`]);
  });

  it('[U19] marks the match in a snippet, names the session (the Inbox for a sessionless question) and answers newest first within the limit', async () => {
    const w = await world();
    const { results } = await w.c.admin.call('search', { query: 'Zebra ELSE', limit: 5 });
    expect(results).toHaveLength(1);
    const [hit] = results;
    expect(hit).toMatchObject({ kind: 'message', id: w.foreignMessage, sessionKey: w.foreignSession, sessionTitle: 'zebra stripes', snippet: 'a zebra elsewhere' });
    expect(hit.highlights.map(([a, b]) => hit.snippet.slice(a, b))).toEqual(['zebra', 'else']);
    const sessionless = (await w.c.admin.call('search', { query: 'which zebra' })).results.find((r) => r.id === w.q.sessionless)!;
    expect(sessionless.sessionKey).toBeUndefined();
    expect(sessionless.sessionTitle).toBe('Inbox');
    const all = (await w.c.admin.call('search', { query: 'zebra', limit: 3 })).results;
    expect(all).toHaveLength(3);
    expect(all.map((r) => r.atMs)).toEqual([...all.map((r) => r.atMs)].sort((a, b) => b - a));
  });

  it('[U19][Q2] a blank query or a bad limit names the field; punctuation alone finds nothing', async () => {
    const w = await world();
    const refused = async (params: Record<string, unknown>) => {
      try {
        await w.c.admin.call('search', params as never);
        return undefined;
      } catch (err) {
        return err as { code: string; details?: { problems?: { path: string }[] } };
      }
    };
    expect((await refused({ query: '   ' }))?.code).toBe('INVALID_REQUEST');
    expect(JSON.stringify((await refused({ query: '   ' }))?.details)).toContain('query');
    expect(JSON.stringify((await refused({ query: 'zebra', limit: 0 }))?.details)).toContain('limit');
    expect(JSON.stringify((await refused({ query: 'x'.repeat(201) }))?.details)).toContain('query');
    expect((await w.c.admin.call('search', { query: '"*()' })).results).toEqual([]);
    expect(await code(w.c.admin.call('search', { query: 'zebra' }))).toBe('ok');
  });
});
