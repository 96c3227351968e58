import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock.ts';
import { failure, startTestGateway, type TestGateway } from '../testing/gateway-harness.ts';
import { roundTrips } from '../testing/barrier.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('sessions and chat', () => {
  it('[C1] sessions.create returns the session and sessions.list lists it with its counters', async () => {
    const clock = new FakeClock();
    t = await startTestGateway({ clock });
    const admin = await t.connect('admin');
    const { session } = await admin.call('sessions.create', { title: 'Release' });
    expect(session).toEqual({ key: expect.stringMatching(/^s_/), title: 'Release', createdBy: 'admin', agentId: 'agent', createdAtMs: clock.now(), lastMessageAtMs: null, pendingQuestions: 0, agentPresence: { state: 'absent', sinceMs: null } });
    const untitled = (await admin.call('sessions.create', {})).session;
    expect(untitled.title).toBe('New session');
    const { sessions } = await admin.call('sessions.list', {});
    expect(sessions.map((s) => s.key).sort()).toEqual([session.key, untitled.key].sort());
    await admin.waitEvent('session.updated', (e) => e.session.key === untitled.key);
  });

  it('[C2] chat.send returns {messageId, seq, deduped}; the same key returns the first result and makes no second message', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const { session } = await admin.call('sessions.create', {});
    const first = await admin.call('chat.send', { sessionKey: session.key, message: 'hello', idempotencyKey: 'key-00000001' });
    expect(first).toEqual({ messageId: expect.stringMatching(/^m_/), seq: expect.any(Number), deduped: false });
    const again = await admin.call('chat.send', { sessionKey: session.key, message: 'hello', idempotencyKey: 'key-00000001' });
    expect(again).toEqual({ ...first, deduped: true });
    const { messages } = await admin.call('chat.history', { sessionKey: session.key });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ id: first.messageId, seq: first.seq, role: 'user', text: 'hello', authorId: 'admin' });
    // The key belongs to the identity: another identity's same key is a new message.
    const writer = await t.connect('writer');
    const other = await writer.call('chat.send', { sessionKey: session.key, message: 'hello', idempotencyKey: 'key-00000001' });
    expect(other.deduped).toBe(false);
  });

  it('[C2] the same key is deduped after a gateway restart on the same database', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const { session } = await admin.call('sessions.create', {});
    const first = await admin.call('chat.send', { sessionKey: session.key, message: 'once', idempotencyKey: 'restart-key-1' });
    const { dir, dbPath } = t;
    await t.close({ keepDir: true });
    t = await startTestGateway({ dir, dbPath });
    const again = await t.connect('admin');
    expect(await again.call('chat.send', { sessionKey: session.key, message: 'once', idempotencyKey: 'restart-key-1' })).toEqual({ ...first, deduped: true });
    expect((await again.call('chat.history', { sessionKey: session.key })).messages).toHaveLength(1);
  });

  it('[C2] message and idempotencyKey lengths are checked field by field', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const { session } = await admin.call('sessions.create', {});
    const err = await failure(admin.call('chat.send', { sessionKey: session.key, message: '', idempotencyKey: 'short' }));
    expect(err.details).toEqual([
      { path: 'message', problem: 'message must not be empty' },
      { path: 'idempotencyKey', problem: 'idempotencyKey must be 8..128 characters' },
    ]);
    const long = await failure(admin.call('chat.send', { sessionKey: session.key, message: 'x'.repeat(32_001), idempotencyKey: '12345678' }));
    expect(long.details).toEqual([{ path: 'message', problem: expect.stringContaining('32000') }]);
  });

  it('[C3] chat.history pages newest first by limit and before, listed oldest first, with hasMore', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const { session } = await admin.call('sessions.create', {});
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await admin.call('chat.send', { sessionKey: session.key, message: `m${i}`, idempotencyKey: `history-${i}-key` })).messageId);
    const page = await admin.call('chat.history', { sessionKey: session.key, limit: 3 });
    expect(page.messages.map((m) => m.text)).toEqual(['m4', 'm5', 'm6']);
    expect(page.hasMore).toBe(true);
    const older = await admin.call('chat.history', { sessionKey: session.key, limit: 3, before: ids[4] });
    expect(older.messages.map((m) => m.text)).toEqual(['m1', 'm2', 'm3']);
    const oldest = await admin.call('chat.history', { sessionKey: session.key, limit: 3, before: ids[1] });
    expect(oldest).toMatchObject({ hasMore: false });
    expect(oldest.messages.map((m) => m.text)).toEqual(['m0']);
    expect((await admin.call('chat.history', { sessionKey: session.key })).messages).toHaveLength(7);
    expect((await failure(admin.call('chat.history', { sessionKey: session.key, limit: 501 }))).details).toEqual([{ path: 'limit', problem: expect.any(String) }]);
  });

  it('[C3] a `before` that names no message of the session is refused naming `before`, not read as the end of the history', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const { session } = await admin.call('sessions.create', {});
    const { session: other } = await admin.call('sessions.create', {});
    await admin.call('chat.send', { sessionKey: session.key, message: 'here', idempotencyKey: 'before-here-key' });
    const elsewhere = (await admin.call('chat.send', { sessionKey: other.key, message: 'there', idempotencyKey: 'before-there-key' })).messageId;
    for (const before of ['m_no-such-message', elsewhere]) {
      const refused = await failure(admin.call('chat.history', { sessionKey: session.key, before }));
      expect(refused.code).toBe('INVALID_REQUEST');
      expect(refused.details).toEqual([{ path: 'before', problem: `no message "${before}" in session "${session.key}": give the id of a message chat.history listed` }]);
    }
  });

  it('[C4] a run streams one message: the first delta creates it, later deltas and the final replace its text', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const agent = await t.connect('agent');
    const { session } = await admin.call('sessions.create', {});
    const { runId } = await agent.call('run.start', { sessionKey: session.key });
    const a = await agent.call('chat.inject', { runId, text: 'Hel', state: 'delta' });
    const b = await agent.call('chat.inject', { runId, text: 'Hello wor', state: 'delta' });
    const c = await agent.call('chat.inject', { runId, text: 'Hello world', state: 'final' });
    expect(new Set([a.messageId, b.messageId, c.messageId]).size).toBe(1);
    const next = await agent.call('chat.inject', { runId, text: 'Second', state: 'final' });
    expect(next.messageId).not.toBe(a.messageId);
    const { messages } = await admin.call('chat.history', { sessionKey: session.key });
    expect(messages.map((m) => [m.text, m.role, m.runId])).toEqual([
      ['Hello world', 'assistant', runId],
      ['Second', 'assistant', runId],
    ]);
    // Events go out in seq order: with the final one in, the deltas before it are too.
    await admin.waitEvent('chat', (e) => e.message.id === a.messageId && e.state === 'final');
    const chat = admin.eventsNamed('chat').filter((e) => e.message.id === a.messageId);
    expect(chat.map((e) => [e.state, e.message.text, e.runId])).toEqual([
      ['delta', 'Hel', runId],
      ['delta', 'Hello wor', runId],
      ['final', 'Hello world', runId],
    ]);
    expect(await agent.call('run.end', { runId, stopReason: 'end_turn' })).toEqual({ ended: true });
    expect(await agent.call('run.end', { runId, stopReason: 'end_turn' })).toEqual({ ended: false });
    expect((await failure(agent.call('chat.inject', { runId, text: 'late', state: 'final' }))).details).toEqual([
      { path: 'runId', problem: expect.stringContaining('ended') },
    ]);
  });

  it('[C5] run.started and run.ended events reach session readers', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const agent = await t.connect('agent');
    const { session } = await admin.call('sessions.create', {});
    const { runId } = await agent.call('run.start', { sessionKey: session.key, recovery: true });
    expect(await admin.waitEvent('run.started', (e) => e.runId === runId)).toMatchObject({ sessionKey: session.key, recovery: true });
    await agent.call('run.end', { runId, stopReason: 'error' });
    expect(await admin.waitEvent('run.ended', (e) => e.runId === runId)).toMatchObject({ sessionKey: session.key, stopReason: 'error' });
  });

  it('[C4] chat.abort ends the open runs of a session with aborted', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const agent = await t.connect('agent');
    const { session } = await admin.call('sessions.create', {});
    await agent.call('agent.subscribe', { sessionKey: session.key });
    const r1 = (await agent.call('run.start', { sessionKey: session.key })).runId;
    const r2 = (await agent.call('run.start', { sessionKey: session.key })).runId;
    expect(await admin.call('chat.abort', { sessionKey: session.key, runId: r2 })).toEqual({ aborted: [r2] });
    expect(await admin.call('chat.abort', { sessionKey: session.key })).toEqual({ aborted: [r1] });
    expect(await admin.call('chat.abort', { sessionKey: session.key })).toEqual({ aborted: [] });
    const ended = await agent.until(() => (agent.eventsNamed('run.ended').length === 2 ? agent.eventsNamed('run.ended') : undefined));
    expect(ended.map((e) => e.stopReason)).toEqual(['aborted', 'aborted']);
    expect((await agent.call('run.end', { runId: r1, stopReason: 'end_turn' })).ended).toBe(false);
  });

  it('[C6][A6] a user message is handed to an agent subscribed to its session, or to all of its sessions', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const one = await t.connect('agent');
    const all = await t.connect('agent2');
    const { session: s1 } = await admin.call('sessions.create', {});
    const { session: s2 } = await admin.call('sessions.create', { agentId: 'agent2' });
    const { session: s3 } = await admin.call('sessions.create', { agentId: 'agent2' });
    await one.call('agent.subscribe', { sessionKey: s1.key });
    await all.call('agent.subscribe', {});
    await admin.call('chat.send', { sessionKey: s1.key, message: 'to one', idempotencyKey: 'sub-key-1' });
    await admin.call('chat.send', { sessionKey: s2.key, message: 'to two', idempotencyKey: 'sub-key-2' });
    await admin.call('chat.send', { sessionKey: s3.key, message: 'to three', idempotencyKey: 'sub-key-3' });
    await all.until(() => (all.eventsNamed('chat').length === 2 ? true : undefined));
    // Both messages have gone out to every connection: what `one` lacks now, it was not sent.
    await roundTrips([one]);
    expect(one.eventsNamed('chat').map((e) => [e.sessionKey, e.message.text, e.message.role])).toEqual([[s1.key, 'to one', 'user']]);
    expect(all.eventsNamed('chat').map((e) => e.message.text)).toEqual(['to two', 'to three']);
    expect((await failure(one.call('agent.subscribe', { sessionKey: s2.key }))).code).toBe('SESSION_NOT_FOUND');
    expect((await failure(one.call('agent.subscribe', { sessionKey: 'missing' }))).code).toBe('SESSION_NOT_FOUND');
  });
});
