import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../config.ts';
import { outcome as code, item, startTestGateway, testConfig, tokenOf, type TestGateway } from '../../testing/gateway-harness.ts';
import { TestClient } from '../../testing/ws-client.ts';
import { roundTrips } from '../../testing/barrier.ts';
import { oneSessionPerKey } from '../../testing/concurrent-requests.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The test identities plus an agent whose own sessions are created by the guest (A6 `owner`). */
const ownedConfig: GatewayConfig = {
  ...testConfig,
  identities: [...testConfig.identities, { id: 'owned', token: 'token-of-owned-0123456789', role: 'agent', scopes: ['agent.run'], owner: 'guest' }],
};

/** Two agents, each with a session of its own that has a message, a run and a question in it. */
async function twoAgents() {
  t = await startTestGateway();
  const admin = await t.connect('admin');
  const agent = await t.connect('agent', { clientId: 'agent-one' });
  const agent2 = await t.connect('agent2', { clientId: 'agent-two' });
  await agent.call('agent.subscribe', {});
  await agent2.call('agent.subscribe', {});
  const mine = (await admin.call('sessions.create', { title: 'for agent' })).session;
  const theirs = (await admin.call('sessions.create', { title: 'for agent2', agentId: 'agent2' })).session;
  return { admin, agent, agent2, mine, theirs };
}

/** Activity in a session bound to `agent`: a user message, a run with a reply, an async question. */
async function activity(admin: TestClient, agent: TestClient, sessionKey: string, n: number) {
  await admin.call('chat.send', { sessionKey, message: `hello ${n}`, idempotencyKey: `a6-key-${n}-00` });
  const { runId } = await agent.call('run.start', { sessionKey });
  await agent.call('chat.inject', { runId, text: `reply ${n}`, state: 'final' });
  const q = await agent.call('question.request', { sessionKey, runId, mode: 'async', questions: [item()] });
  await agent.call('run.end', { runId, stopReason: 'end_turn' });
  return q.id;
}

describe('A6 sessions bound to agents', () => {
  it('[A6] a new session is bound to the named agent, else defaultAgent, else the first agent; an unknown agent is refused', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    expect((await admin.call('sessions.create', {})).session.agentId).toBe('agent');
    expect((await admin.call('sessions.create', { agentId: 'agent2' })).session.agentId).toBe('agent2');
    const res = await admin.request('sessions.create', { agentId: 'admin' });
    expect(res.error?.code).toBe('INVALID_REQUEST');
    expect(JSON.stringify(res.error?.details)).toContain('agentId');
    const listed = (await admin.call('sessions.list', {})).sessions.map((s) => s.agentId).sort();
    expect(listed).toEqual(['agent', 'agent2']);
    await t.close();

    t = await startTestGateway({ config: { ...testConfig, defaultAgent: 'agent2' } });
    const admin2 = await t.connect('admin');
    expect((await admin2.call('sessions.create', {})).session.agentId).toBe('agent2');
  });

  it('[A6] an agent sees, reads, subscribes to, runs and asks only in its own sessions', async () => {
    const { agent, agent2, mine, theirs } = await twoAgents();
    expect((await agent.call('sessions.list', {})).sessions.map((s) => s.key)).toEqual([mine.key]);
    expect((await agent2.call('sessions.list', {})).sessions.map((s) => s.key)).toEqual([theirs.key]);
    expect(await code(agent2.call('chat.history', { sessionKey: mine.key }))).toBe('SESSION_NOT_FOUND');
    expect(await code(agent2.call('agent.subscribe', { sessionKey: mine.key }))).toBe('SESSION_NOT_FOUND');
    expect(await code(agent2.call('run.start', { sessionKey: mine.key }))).toBe('SESSION_NOT_FOUND');
    expect(await code(agent2.call('question.request', { sessionKey: mine.key, questions: [item()] }))).toBe('SESSION_NOT_FOUND');
    expect(await code(agent2.call('sessions.update', { sessionKey: mine.key, title: 'mine now' }))).toBe('SESSION_NOT_FOUND');
    expect(await code(agent.call('chat.history', { sessionKey: mine.key }))).toBe('ok');
    expect(await code(agent2.call('chat.history', { sessionKey: theirs.key }))).toBe('ok');
    const fresh = await t!.connect('agent2');
    expect(fresh.hello!.snapshot.sessions.map((s) => s.key)).toEqual([theirs.key]);
  });

  it('[A6][A4] no chat, run, question or session event of another agent\'s session reaches an agent, even subscribed to all', async () => {
    const { admin, agent, agent2, mine } = await twoAgents();
    const q = await activity(admin, agent, mine.key, 1);
    await admin.call('chat.send', { sessionKey: mine.key, message: 'answer', idempotencyKey: 'a6-reply-01', replyTo: { questionId: q, answers: { env: ['Staging'] } } });
    // The last message reaches its own agent; what was sent before it has reached anyone it was going to reach.
    await agent.until(() => (agent.eventsNamed('chat').some((e) => e.message.text === 'answer') ? true : undefined));
    expect(agent.eventsNamed('chat').map((e) => e.message.text)).toEqual(['hello 1', 'reply 1', 'answer']);
    for (const ev of ['chat', 'session.updated', 'run.started', 'run.ended', 'question.requested', 'question.resolved']) {
      expect(agent2.events.filter((e) => e.event === ev && JSON.stringify(e.payload).includes(mine.key)), ev).toEqual([]);
    }
    expect(await code(agent2.call('question.get', { id: q }))).toBe('QUESTION_NOT_FOUND');
  });

  it('[A6][R2] resume replays nothing of another agent\'s session, and everything of its own', async () => {
    const { admin, agent, agent2, mine, theirs } = await twoAgents();
    const cursor = agent2.hello!.snapshot.cursor;
    agent2.close();
    await agent2.waitClose();
    await activity(admin, agent, mine.key, 2);
    const worker = await t!.connect('agent2', { clientId: 'agent-two-worker' });
    // Every call of the activity was answered after its commit: the replay below reads all of it.
    await activity(admin, worker, theirs.key, 3);
    const back = await t!.open();
    expect((await back.connect(tokenOf('agent2'), { clientId: 'agent-two', resume: { cursor } })).ok).toBe(true);
    expect(back.hello!.resumed).toBe(true);
    await back.until(() => (back.eventsNamed('chat').some((e) => e.message.text === 'reply 3') ? true : undefined));
    expect(back.eventsNamed('chat').map((e) => e.message.text)).toEqual(['hello 3', 'reply 3']);
    expect(back.seqEvents().length).toBeGreaterThan(0);
    expect(back.seqEvents().filter((e) => JSON.stringify(e.payload).includes(mine.key))).toEqual([]);
    // The agent whose session it is gets it all back.
    const own = await t!.open();
    await own.connect(tokenOf('agent'), { clientId: 'agent-one', resume: { cursor } });
    await own.until(() => (own.eventsNamed('chat').some((e) => e.message.text === 'reply 2') ? true : undefined));
    expect(own.eventsNamed('chat').map((e) => e.message.text)).toEqual(['hello 2', 'reply 2']);
  });

  it('[A6] an agent creates its own sessions, bound to it, created by its owner when it has one, never for another agent', async () => {
    t = await startTestGateway({ config: ownedConfig });
    const agent = await t.connect('agent');
    const own = (await agent.call('sessions.create', { title: 'Mine' })).session;
    expect(own).toMatchObject({ title: 'Mine', agentId: 'agent', createdBy: 'agent' });
    expect((await agent.request('sessions.create', { agentId: 'agent2' })).error?.code).toBe('FORBIDDEN');

    const owned = await TestClient.open(t.gw.wsUrl);
    t.clients.push(owned);
    await owned.connect('token-of-owned-0123456789');
    const made = (await owned.call('sessions.create', { title: 'For the guest' })).session;
    expect(made).toMatchObject({ agentId: 'owned', createdBy: 'guest' });
    const guest = await t.connect('guest');
    expect((await guest.call('sessions.list', {})).sessions.map((s) => s.key)).toEqual([made.key]);
    const guest2 = await t.connect('guest2');
    expect((await guest2.call('sessions.list', {})).sessions).toEqual([]);
    expect((await agent.call('sessions.list', {})).sessions.map((s) => s.key)).toEqual([own.key]);
  });

  it('[A6] an agent with a config owner sees only the sessions bound to it, not every session its owner created', async () => {
    t = await startTestGateway({ config: ownedConfig });
    const guest = await t.connect('guest');
    const owned = await TestClient.open(t.gw.wsUrl);
    t.clients.push(owned);
    await owned.connect('token-of-owned-0123456789', { clientId: 'owned-client' });
    await owned.call('agent.subscribe', {});
    const made = (await owned.call('sessions.create', { title: 'Bound to owned' })).session;
    const guests = (await guest.call('sessions.create', { title: 'The guest\'s own' })).session;
    expect(guests).toMatchObject({ createdBy: 'guest', agentId: 'agent' });
    expect((await guest.call('sessions.list', {})).sessions.map((s) => s.key).sort()).toEqual([made.key, guests.key].sort());

    expect((await owned.call('sessions.list', {})).sessions.map((s) => s.key)).toEqual([made.key]);
    for (const [method, params] of [
      ['chat.history', { sessionKey: guests.key }],
      ['agent.subscribe', { sessionKey: guests.key }],
      ['run.start', { sessionKey: guests.key }],
      ['question.request', { sessionKey: guests.key, questions: [item()] }],
      ['question.list', { sessionKey: guests.key }],
    ] as const)
      expect((await owned.request(method, params)).error?.code, method).toBe('SESSION_NOT_FOUND');
    // Subscribed to every session, it hears its own session's messages and none of the other.
    await guest.call('chat.send', { sessionKey: guests.key, message: 'not for owned', idempotencyKey: 'owned-key-other' });
    await guest.call('chat.send', { sessionKey: made.key, message: 'for owned', idempotencyKey: 'owned-key-mine' });
    await owned.waitEvent('chat', (e) => e.message.text === 'for owned');
    expect(owned.events.filter((e) => JSON.stringify(e.payload).includes(guests.key))).toEqual([]);
    const fresh = await TestClient.open(t.gw.wsUrl);
    t.clients.push(fresh);
    await fresh.connect('token-of-owned-0123456789');
    expect(fresh.hello!.snapshot.sessions.map((s) => s.key)).toEqual([made.key]);
  });

  it('[A6] the same idempotencyKey from the same identity returns the same session, also after a restart', async () => {
    t = await startTestGateway();
    const dir = t.dir;
    const agent = await t.connect('agent');
    const first = (await agent.call('sessions.create', { title: 'Claude Code · app', idempotencyKey: 'mcp-session-0001' })).session;
    const again = (await agent.call('sessions.create', { title: 'Claude Code · app', idempotencyKey: 'mcp-session-0001' })).session;
    expect(again.key).toBe(first.key);
    const admin = await t.connect('admin');
    const adminOwn = (await admin.call('sessions.create', { idempotencyKey: 'mcp-session-0001' })).session;
    expect(adminOwn.key).not.toBe(first.key);
    expect((await agent.request('sessions.create', { idempotencyKey: 'short' })).error?.code).toBe('INVALID_REQUEST');
    await t.close({ keepDir: true });

    t = await startTestGateway({ dir });
    const back = await t.connect('agent');
    const after = (await back.call('sessions.create', { title: 'Claude Code · app', idempotencyKey: 'mcp-session-0001' })).session;
    expect(after.key).toBe(first.key);
    const listed = (await back.call('sessions.list', {})).sessions.filter((s) => s.title === 'Claude Code · app');
    expect(listed.map((s) => s.key)).toEqual([first.key]);
  });

  it('[A6] the same idempotencyKey sent twice at once, on two sockets of one identity (a retry racing its original), makes one session', async () => {
    t = await startTestGateway();
    await oneSessionPerKey(await t.connect('agent'), await t.connect('agent'));
  });
});

describe('C1 sessions.update and titles', () => {
  it('[C1] its creator or operator.admin renames a session; others are refused; every reader hears session.updated', async () => {
    t = await startTestGateway();
    const guest = await t.connect('guest');
    const admin = await t.connect('admin');
    const writer = await t.connect('writer');
    const guest2 = await t.connect('guest2');
    const { session } = await guest.call('sessions.create', { title: 'Draft' });
    expect((await guest.call('sessions.update', { sessionKey: session.key, title: '  Release plan  ' })).session.title).toBe('Release plan');
    await admin.waitEvent('session.updated', (e) => e.session.key === session.key && e.session.title === 'Release plan');
    expect((await admin.call('sessions.update', { sessionKey: session.key, title: 'By admin' })).session.title).toBe('By admin');
    expect((await writer.request('sessions.update', { sessionKey: session.key, title: 'By writer' })).error?.code).toBe('FORBIDDEN');
    expect(await code(guest2.call('sessions.update', { sessionKey: session.key, title: 'By guest2' }))).toBe('SESSION_NOT_FOUND');
    const blank = await guest.request('sessions.update', { sessionKey: session.key, title: '   ' });
    expect(blank.error?.code).toBe('INVALID_REQUEST');
    expect(JSON.stringify(blank.error?.details)).toContain('title');
    expect((await guest.call('sessions.list', {})).sessions[0].title).toBe('By admin');
    // The updates went out to every connection before their answers: a round trip on guest2 follows them.
    await roundTrips([guest2]);
    expect(guest2.eventsNamed('session.updated')).toEqual([]);
  });

  it('[U15] an untitled session takes its title from its first message; a titled one keeps its title', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const untitled = (await admin.call('sessions.create', {})).session;
    expect(untitled.title).toBe('New session');
    await admin.call('chat.send', { sessionKey: untitled.key, message: '  Plan the release\nwith details', idempotencyKey: 'title-key-01' });
    await admin.call('chat.send', { sessionKey: untitled.key, message: 'second message', idempotencyKey: 'title-key-02' });
    const long = (await admin.call('sessions.create', {})).session;
    await admin.call('chat.send', { sessionKey: long.key, message: 'word '.repeat(40), idempotencyKey: 'title-key-03' });
    const titled = (await admin.call('sessions.create', { title: 'Kept' })).session;
    await admin.call('chat.send', { sessionKey: titled.key, message: 'not a title', idempotencyKey: 'title-key-04' });
    const byKey = new Map((await admin.call('sessions.list', {})).sessions.map((s) => [s.key, s.title]));
    expect(byKey.get(untitled.key)).toBe('Plan the release');
    expect(byKey.get(long.key)!.length).toBeLessThanOrEqual(60);
    expect(byKey.get(long.key)).toMatch(/^word word .*…$/);
    expect(byKey.get(titled.key)).toBe('Kept');
  });
});
