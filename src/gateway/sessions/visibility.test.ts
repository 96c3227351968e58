import { describe, expect, it } from 'vitest';
import { outcome as code, connectEach, EVERYONE as ALL, gatewayPerTest, item, type Who } from '../../testing/gateway-harness.ts';
import type { TestClient } from '../../testing/ws-client.ts';
import { roundTrips } from '../../testing/barrier.ts';

const gateway = gatewayPerTest();

/** Sessions of admin, guest and guest2; questions in each, one privileged, two sessionless. */
async function world(memory = false) {
  const c = await connectEach(await gateway.start({ memory }), ALL);
  const adminSession = (await c.admin.call('sessions.create', { title: 'admin' })).session.key;
  const guestSession = (await c.guest.call('sessions.create', { title: 'guest' })).session.key;
  const foreignSession = (await c.guest2.call('sessions.create', { title: 'guest2' })).session.key;
  const ask = (who: TestClient, sessionKey?: string, privileged?: boolean) =>
    who.call('question.request', { ...(sessionKey ? { sessionKey } : {}), ...(privileged ? { privileged } : {}), mode: 'async', questions: [item()] }).then((r) => r.id);
  const q = {
    guest: await ask(c.agent, guestSession),
    guestPrivileged: await ask(c.agent, guestSession, true),
    foreign: await ask(c.agent, foreignSession),
    adminSession: await ask(c.agent, adminSession),
    sessionless: await ask(c.agent),
    agent2: await ask(c.agent2),
  };
  const every = Object.values(q);
  const expected: Record<Who, string[]> = {
    admin: every,
    questions: every,
    guest: [q.guest],
    guest2: [q.foreign],
    reader: [],
    writer: [],
    agent: [q.guest, q.guestPrivileged, q.foreign, q.adminSession, q.sessionless],
    agent2: [q.agent2],
  };
  // Each ask was answered after its events went out to every connection; a round trip on each now follows them.
  await roundTrips(Object.values(c));
  return { c, q, every, expected, adminSession, guestSession, foreignSession };
}

describe('visibility matrix', () => {
  it.each([false, true])('[A3] question.list, question.get and hello snapshots show each identity exactly its questions (memory store: %s)', async (memory) => {
    const { c, every, expected } = await world(memory);
    for (const who of ALL) {
      // A3: session access alone sees no questions; A4: they do not exist for it (an empty list, QUESTION_NOT_FOUND).
      const listed = (await c[who].call('question.list', {})).questions.map((x) => x.id);
      expect(listed.sort(), who).toEqual([...expected[who]].sort());
      for (const id of every) {
        const got = await code(c[who].call('question.get', { id }));
        const want = expected[who].includes(id) ? 'ok' : 'QUESTION_NOT_FOUND';
        expect(got, `${who} get ${id}`).toBe(want);
      }
      const fresh = await gateway.t.connect(who);
      expect(fresh.hello!.snapshot.pendingQuestions.map((x) => x.id).sort(), `${who} snapshot`).toEqual([...expected[who]].sort());
    }
  });

  it('[A4] question.list for a session it may not see, or that does not exist, answers SESSION_NOT_FOUND', async () => {
    const { c, q, guestSession, foreignSession } = await world();
    const ids = (r: { questions: { id: string }[] }) => r.questions.map((x) => x.id);
    expect(ids(await c.guest.call('question.list', { sessionKey: guestSession }))).toEqual([q.guest]);
    expect(await code(c.guest.call('question.list', { sessionKey: foreignSession }))).toBe('SESSION_NOT_FOUND');
    expect(await code(c.agent2.call('question.list', { sessionKey: guestSession }))).toBe('SESSION_NOT_FOUND');
    expect(ids(await c.questions.call('question.list', { sessionKey: foreignSession }))).toEqual([q.foreign]);
    for (const who of ['admin', 'guest', 'agent'] as const)
      expect(await code(c[who].call('question.list', { sessionKey: 's_no_such_session' })), who).toBe('SESSION_NOT_FOUND');
  });

  it('[A4] operator.questions, which reads no session, cannot tell an unknown session from one without questions', async () => {
    const { c } = await world();
    const empty = (await c.admin.call('sessions.create', { title: 'empty' })).session.key;
    const unknown = await c.questions.request('question.list', { sessionKey: 's_no_such_session' });
    const existing = await c.questions.request('question.list', { sessionKey: empty });
    expect(unknown.error).toBeUndefined();
    expect(unknown.payload).toEqual({ questions: [] });
    expect(unknown.payload).toEqual(existing.payload);
  });

  it('[A3][A4] asking or resolving a question sends no session.updated to those who may not see it', async () => {
    const { c, q, guestSession } = await world();
    const updates = () => Object.fromEntries(ALL.map((who) => [who, c[who].eventsNamed('session.updated').filter((e) => e.session.key === guestSession).length]));
    // The session's creation for its readers, then one per question each reader may see (two were asked in it).
    // operator.questions alone reads no session, and the agent subscribed to none (C6): they get no session events.
    await expect.poll(updates).toEqual({ admin: 3, questions: 0, guest: 2, guest2: 0, reader: 1, writer: 1, agent: 0, agent2: 0 });
    await c.admin.call('question.resolve', { id: q.guestPrivileged, skip: true });
    await c.guest.call('question.resolve', { id: q.guest, skip: true });
    // A rename reaches every reader of the session: once it has arrived, so has everything before it.
    await c.guest.call('sessions.update', { sessionKey: guestSession, title: 'renamed' });
    for (const who of ['admin', 'guest', 'reader', 'writer'] as const) await c[who].waitEvent('session.updated', (e) => e.session.title === 'renamed');
    await expect.poll(updates).toEqual({ admin: 6, questions: 0, guest: 4, guest2: 0, reader: 2, writer: 2, agent: 0, agent2: 0 });
    // Subscribed, the asking agent hears of its questions like any reader that may see them.
    await c.agent.call('agent.subscribe', { sessionKey: guestSession });
    await c.agent.call('question.request', { sessionKey: guestSession, privileged: true, mode: 'async', questions: [item()] });
    await c.guest.call('sessions.update', { sessionKey: guestSession, title: 'renamed again' });
    for (const who of ['agent', 'guest', 'reader'] as const) await c[who].waitEvent('session.updated', (e) => e.session.title === 'renamed again');
    await expect.poll(updates).toEqual({ admin: 8, questions: 0, guest: 5, guest2: 0, reader: 3, writer: 3, agent: 2, agent2: 0 });
  });

  it('[A4] question events reach exactly the connections that may see the question', async () => {
    const { c, q, expected } = await world();
    for (const who of ALL) {
      const seen = c[who].eventsNamed('question.requested').map((e) => e.question.id);
      expect(seen.sort(), who).toEqual([...expected[who]].sort());
    }
    await c.admin.call('question.resolve', { id: q.guestPrivileged, skip: true });
    await c.guest.call('question.resolve', { id: q.guest, answers: { env: ['Staging'] } });
    const wanted = (who: Who) => [q.guestPrivileged, q.guest].filter((id) => expected[who].includes(id));
    // What each may see has arrived; then nobody has more than that.
    for (const who of ALL) {
      const resolved = () => c[who].eventsNamed('question.resolved').map((e) => e.id);
      await c[who].until(() => (wanted(who).every((id) => resolved().includes(id)) ? true : undefined), undefined, `${who}'s question.resolved`);
    }
    // Those who may see neither have had both resolves sent their way by now, if at all.
    await roundTrips(Object.values(c));
    for (const who of ALL) {
      const seen = c[who].eventsNamed('question.resolved').map((e) => e.id);
      expect(seen.sort(), who).toEqual(wanted(who).sort());
    }
  });

  it('[A3] a guest answers only in its own session, never privileged or sessionless questions', async () => {
    const { c, q } = await world();
    expect(await code(c.guest.call('question.resolve', { id: q.foreign, skip: true }))).toBe('QUESTION_NOT_FOUND');
    expect(await code(c.guest.call('question.resolve', { id: q.guestPrivileged, skip: true }))).toBe('QUESTION_NOT_FOUND');
    expect(await code(c.guest.call('question.resolve', { id: q.sessionless, skip: true }))).toBe('QUESTION_NOT_FOUND');
    expect(await code(c.guest.call('question.resolve', { id: q.guest, skip: true }))).toBe('ok');
    expect(await code(c.questions.call('question.resolve', { id: q.sessionless, skip: true }))).toBe('ok');
    expect(await code(c.agent2.call('question.resolve', { id: q.foreign, cancel: true }))).toBe('QUESTION_NOT_FOUND');
  });

  it('[A2][A3] session access alone exposes no questions, not even a count', async () => {
    const { c, guestSession } = await world();
    for (const who of ['reader', 'writer'] as const) {
      const sessions = (await c[who].call('sessions.list', {})).sessions;
      expect(sessions).toHaveLength(3);
      expect(sessions.every((s) => s.pendingQuestions === 0), who).toBe(true);
      const updates = c[who].eventsNamed('session.updated');
      expect(updates.every((u) => u.session.pendingQuestions === 0), who).toBe(true);
    }
    const mine = (await c.guest.call('sessions.list', {})).sessions;
    expect(mine.map((s) => s.key)).toEqual([guestSession]);
    // The privileged question in the guest's session is not counted for the guest; an admin counts both.
    expect(mine[0].pendingQuestions).toBe(1);
    expect((await c.admin.call('sessions.list', {})).sessions.find((s) => s.key === guestSession)?.pendingQuestions).toBe(2);
  });

  it('[A4] several tabs of one identity each get what one tab gets, in one fan-out; other identities still get only theirs', async () => {
    const { c, guestSession, foreignSession } = await world();
    // A second tab of each kind of viewer: the fan-out decides once per identity, so each tab must still see its own.
    const second = { guest: await gateway.t.connect('guest'), guest2: await gateway.t.connect('guest2'), reader: await gateway.t.connect('reader'), admin: await gateway.t.connect('admin') };
    const asked = await c.agent.call('question.request', { sessionKey: guestSession, mode: 'async', questions: [item()] });
    await c.guest.call('question.resolve', { id: asked.id, answers: { env: ['Staging'] } });
    await roundTrips([...Object.values(c), ...Object.values(second)]);
    for (const who of ['guest', 'guest2', 'reader', 'admin'] as const) {
      for (const tab of [c[who], second[who]]) {
        const requested = tab.eventsNamed('question.requested').filter((e) => e.question.id === asked.id);
        const resolved = tab.eventsNamed('question.resolved').filter((e) => e.id === asked.id);
        const counts = tab.eventsNamed('session.updated').filter((e) => e.session.key === guestSession).map((e) => e.session.pendingQuestions);
        const mayAnswer = who === 'guest' || who === 'admin';
        expect(requested.length, `${who} question.requested`).toBe(mayAnswer ? 1 : 0);
        expect(resolved.length, `${who} question.resolved`).toBe(mayAnswer ? 1 : 0);
        // The guest counts its own visible question (the privileged one stays hidden), the admin both, a reader none,
        // and guest2 hears nothing of a session it cannot read.
        // Before the answer, and after it (the answer's Q9 reply message updates the session too, with the same count).
        const want = { guest: [2, 1], admin: [3, 2], reader: [0, 0], guest2: [] }[who];
        if (want.length === 0) expect(counts, `${who} session.updated`).toEqual([]);
        else {
          expect(counts, `${who} session.updated before the answer`).toContain(want[0]);
          expect(counts.at(-1), `${who} session.updated after the answer`).toBe(want[1]);
        }
      }
    }
    expect(second.guest2.eventsNamed('session.updated').every((e) => e.session.key === foreignSession)).toBe(true);
    // C6: an agent's tabs differ by what each subscribed to, so each is decided on its own.
    const agentTab = await gateway.t.connect('agent');
    await agentTab.call('agent.subscribe', { sessionKey: guestSession });
    await c.guest.call('chat.send', { sessionKey: guestSession, message: 'for the subscribed tab', idempotencyKey: 'guest-key-tabs' });
    await agentTab.waitEvent('chat', (e) => e.message.text === 'for the subscribed tab');
    await roundTrips([c.agent]);
    expect(agentTab.eventsNamed('chat').map((e) => e.message.text)).toEqual(['for the subscribed tab']);
    expect(c.agent.eventsNamed('chat')).toEqual([]);
  });

  it('[A2][A4] sessions of others do not exist for a guest: list, history, send and events', async () => {
    const { c, guestSession, foreignSession } = await world();
    expect(await code(c.guest.call('chat.history', { sessionKey: foreignSession }))).toBe('SESSION_NOT_FOUND');
    expect(await code(c.guest.call('chat.send', { sessionKey: foreignSession, message: 'hi', idempotencyKey: 'guest-key-1' }))).toBe('SESSION_NOT_FOUND');
    await c.guest2.call('chat.send', { sessionKey: foreignSession, message: 'secret', idempotencyKey: 'guest2-key-1' });
    await c.guest.call('chat.send', { sessionKey: guestSession, message: 'mine', idempotencyKey: 'guest-key-2' });
    await c.guest.waitEvent('chat', (e) => e.message.text === 'mine');
    for (const text of ['mine', 'secret']) await c.reader.waitEvent('chat', (e) => e.message.text === text);
    await roundTrips([c.guest, c.questions, c.agent]);
    expect(c.guest.eventsNamed('chat').map((e) => e.message.text)).toEqual(['mine']);
    expect(c.guest.eventsNamed('session.updated').every((e) => e.session.key === guestSession)).toBe(true);
    expect(c.reader.eventsNamed('chat').map((e) => e.message.text).sort()).toEqual(['mine', 'secret']);
    expect(c.questions.eventsNamed('chat')).toEqual([]);
    // Agents hear chat only where they subscribed (C6).
    expect(c.agent.eventsNamed('chat')).toEqual([]);
  });

  it('[A5] every method checks its scope and FORBIDDEN names the scope needed', async () => {
    const { c, guestSession } = await world();
    const cases: [Who, string, unknown, RegExp][] = [
      ['reader', 'sessions.create', {}, /operator\.write/],
      ['reader', 'chat.send', { sessionKey: guestSession, message: 'x', idempotencyKey: '12345678' }, /operator\.write/],
      ['reader', 'question.resolve', { id: 'x', skip: true }, /operator\.questions/],
      ['agent', 'sessions.update', { sessionKey: guestSession, title: 'x' }, /operator\.admin/],
      ['agent', 'chat.send', { sessionKey: guestSession, message: 'x', idempotencyKey: '12345678' }, /operator\.write/],
      ['admin', 'question.request', { questions: [item()] }, /agent\.run/],
      ['admin', 'run.start', {}, /agent\.run/],
      ['questions', 'sessions.list', {}, /operator\.read/],
      ['guest', 'chat.inject', { runId: 'r', text: 'x', state: 'final' }, /agent\.run/],
      ['writer', 'question.resolve', { id: 'x', skip: true }, /operator\.questions/],
    ];
    for (const [who, method, params, scope] of cases) {
      const res = await c[who].request(method, params);
      expect(res.error?.code, `${who} ${method}`).toBe('FORBIDDEN');
      expect(res.error?.message, `${who} ${method}`).toMatch(scope);
    }
  });
});
