import { setFlagsFromString } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentPresence, Session } from '../../protocol/index.ts';
import { withAgentPresence } from './agent-presence.ts';
import { startTestGateway, tokenOf, type TestGateway } from '../../testing/gateway-harness.ts';
import type { TestClient } from '../../testing/ws-client.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const presenceEvents = (c: TestClient, sessionKey: string) =>
  c.events.filter((e) => e.event === 'session.presence' && (e.payload as { sessionKey: string }).sessionKey === sessionKey).map((e) => e as { payload: { agentPresence: AgentPresence }; seq?: number });
const lastState = (c: TestClient, sessionKey: string) => presenceEvents(c, sessionKey).at(-1)?.payload.agentPresence.state;
const listed = async (c: TestClient, key: string) => (await c.call('sessions.list', {})).sessions.find((s) => s.key === key)?.agentPresence;

describe('U18 agent presence', () => {
  it('[U18] sessions.list and the snapshot say absent, connected, working; each change is a live session.presence event without a seq', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const { session } = await admin.call('sessions.create', { title: 'work' });
    expect(await listed(admin, session.key)).toEqual({ state: 'absent', sinceMs: null });

    const agent = await t.connect('agent');
    await agent.call('agent.subscribe', {});
    await expect.poll(() => lastState(admin, session.key)).toBe('connected');
    expect((await listed(admin, session.key))?.state).toBe('connected');
    expect(presenceEvents(admin, session.key).every((e) => e.seq === undefined)).toBe(true);

    const { runId } = await agent.call('run.start', { sessionKey: session.key });
    await expect.poll(() => lastState(admin, session.key)).toBe('working');
    expect((await listed(admin, session.key))?.state).toBe('working');
    await agent.call('run.end', { runId, stopReason: 'end_turn' });
    await expect.poll(() => lastState(admin, session.key)).toBe('connected');

    const before = Date.now();
    agent.close();
    await expect.poll(() => lastState(admin, session.key)).toBe('absent');
    const absent = await listed(admin, session.key);
    expect(absent?.state).toBe('absent');
    expect(absent?.sinceMs).toBeGreaterThanOrEqual(before - 1000);
    const later = await t.connect('admin');
    expect(later.hello?.snapshot.sessions.find((s) => s.key === session.key)?.agentPresence?.state).toBe('absent');
  });

  it('[U18][A4] a guest sees presence only for its own sessions; an agent only for its bound ones', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const guest = await t.connect('guest');
    const { session: adminOnly } = await admin.call('sessions.create', { title: 'admin only' });
    const { session: guests } = await guest.call('sessions.create', { title: 'the guest' });
    const { session: other } = await admin.call('sessions.create', { title: 'for agent2', agentId: 'agent2' });
    const agent2 = await t.connect('agent2');
    await agent2.call('agent.subscribe', {});
    const agent = await t.connect('agent');
    await agent.call('agent.subscribe', {});
    await expect.poll(() => lastState(guest, guests.key)).toBe('connected');
    await expect.poll(() => lastState(admin, adminOnly.key)).toBe('connected');
    expect(presenceEvents(guest, adminOnly.key)).toEqual([]);
    expect(presenceEvents(guest, other.key)).toEqual([]);
    expect(presenceEvents(agent2, guests.key)).toEqual([]);
    expect((await guest.call('sessions.list', {})).sessions.map((s) => s.key)).toEqual([guests.key]);
  });

  it('[U18][A5] agents.connectInfo gives the agent tokens to operator.admin only; everyone else is refused', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const { agents } = await admin.call('agents.connectInfo', {});
    expect(agents.find((a) => a.id === 'agent')).toMatchObject({ token: tokenOf('agent'), demo: false, presence: { state: 'absent' } });
    for (const who of ['questions', 'guest', 'reader', 'writer', 'agent'] as const) {
      const c = await t.connect(who);
      const res = await c.request('agents.connectInfo', {});
      expect(res.error?.code, who).toBe('FORBIDDEN');
      expect(JSON.stringify(res)).not.toContain(tokenOf('agent'));
    }
  });
});

describe('U18 presence on session.updated', () => {
  it('[U18] a new session\'s session.updated says where its agent is, for every viewer', async () => {
    t = await startTestGateway();
    const agent = await t.connect('agent');
    await agent.call('agent.subscribe', {});
    const admin = await t.connect('admin');
    const guest = await t.connect('guest');
    const { session } = await guest.call('sessions.create', { title: 'new' });
    const updated = (c: TestClient) =>
      c.events.filter((e) => e.event === 'session.updated').map((e) => (e.payload as { session: { key: string; agentPresence?: AgentPresence } }).session).find((s) => s.key === session.key);
    await expect.poll(() => updated(admin)?.agentPresence?.state).toBe('connected');
    await expect.poll(() => updated(guest)?.agentPresence?.state).toBe('connected');
  });

  it('[S5] sessions listed with their presence share one hidden class, so a long list leaves no garbage per session', () => {
    // V8's own check, allowed for functions compiled from here on. A spread copy with a key added after it gets a
    // hidden class of its own once the copying is warm: a new map and descriptor array per listed session.
    setFlagsFromString('--allow-natives-syntax');
    const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
    const stored = (i: number): Session => ({ key: `s${i}`, title: 'work', createdBy: 'admin', agentId: 'agent', createdAtMs: i, lastMessageAtMs: null, pendingQuestions: 0 });
    const presence: AgentPresence = { state: 'connected', sinceMs: 1 };
    const listed = Array.from({ length: 50 }, (_, i) => withAgentPresence(stored(i), presence));
    expect(listed.every((s) => sameMap(s, listed[0]))).toBe(true);
    expect(listed[49]).toEqual({ ...stored(49), agentPresence: presence });
  });
});
