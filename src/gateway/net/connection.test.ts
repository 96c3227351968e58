import { afterEach, describe, expect, it, vi } from 'vitest';
import { CloseCode, EVENT_NAMES, METHOD_NAMES, PROTOCOL_VERSION } from '../../protocol/index.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { item, startTestGateway, tokenOf, type TestGateway } from '../../testing/gateway-harness.ts';
import { laterCommit, roundTrips } from '../../testing/barrier.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await t?.close();
  t = undefined;
});

/** The rate limiter's buckets fill on real time (performance.now): held still here, and moved only by `vi.advanceTimersByTime`. */
const holdRealTime = () => vi.useFakeTimers({ toFake: ['performance'] });

describe('transport and handshake', () => {
  it('[P1] speaks on /ws only; other upgrade paths are refused', async () => {
    t = await startTestGateway();
    const c = await t.open();
    expect(c.ws.readyState).toBe(c.ws.OPEN);
    const { default: WebSocket } = await import('ws');
    const other = new WebSocket(t.gw.url.replace('http', 'ws') + '/elsewhere');
    const failed = await new Promise<boolean>((ok) => {
      other.on('error', () => ok(true));
      other.on('open', () => ok(false));
    });
    expect(failed).toBe(true);
  });

  it('[P4] sends connect.challenge {nonce, ts} on open', async () => {
    t = await startTestGateway();
    const c = await t.open();
    const challenge = await c.waitEvent('connect.challenge');
    expect(challenge.nonce.length).toBeGreaterThan(10);
    expect(typeof challenge.ts).toBe('number');
  });

  it('[P5] answers hello-ok with methods, events, auth, policy and a snapshot', async () => {
    t = await startTestGateway({ tickIntervalMs: 5000, maxPayload: 4096 });
    const c = await t.connect('admin');
    const hello = c.hello!;
    expect(hello.type).toBe('hello-ok');
    expect(hello.protocol).toBe(PROTOCOL_VERSION);
    expect(hello.features.methods).toEqual(METHOD_NAMES);
    expect(hello.features.events).toEqual(EVENT_NAMES);
    expect(hello.auth).toEqual({ identity: 'admin', role: 'operator', scopes: ['operator.admin'] });
    expect(hello.policy).toEqual({ maxPayload: 4096, tickIntervalMs: 5000 });
    expect(hello.snapshot).toEqual({ cursor: 0, sessions: [], pendingQuestions: [], pendingSecrets: [] });
    expect(hello.resumed).toBe(false);
    expect(hello.server.connId).toMatch(/^c_/);
  });

  it('[P5] snapshot holds the sessions and every pending question the identity may see', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const { session } = await admin.call('sessions.create', { title: 'Deploys' });
    const agent = await t.connect('agent');
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    const later = await t.connect('admin');
    expect(later.hello!.snapshot.sessions.map((s) => s.key)).toEqual([session.key]);
    expect(later.hello!.snapshot.sessions[0].pendingQuestions).toBe(1);
    expect(later.hello!.snapshot.pendingQuestions.map((q) => q.id)).toEqual([id]);
    expect(later.hello!.snapshot.cursor).toBeGreaterThan(0);
    const reader = await t.connect('reader');
    expect(reader.hello!.snapshot.pendingQuestions).toEqual([]);
    expect(reader.hello!.snapshot.sessions[0].pendingQuestions).toBe(0);
  });

  it('[P4] a first request other than connect answers UNAUTHORIZED and closes with 4001', async () => {
    t = await startTestGateway();
    const c = await t.open();
    const res = await c.request('sessions.list', {});
    expect(res.error?.code).toBe('UNAUTHORIZED');
    expect((await c.waitClose()).code).toBe(CloseCode.unauthorized);
  });

  it('[P4] a bad token answers UNAUTHORIZED and closes with 4001', async () => {
    t = await startTestGateway();
    const c = await t.open();
    const res = await c.connect('not-a-token-at-all');
    expect(res.ok).toBe(false);
    expect(res.error?.code).toBe('UNAUTHORIZED');
    expect((await c.waitClose()).code).toBe(4001);
  });

  it('[P4] no common protocol version answers INVALID_REQUEST and closes with 4002', async () => {
    t = await startTestGateway();
    const c = await t.open();
    const res = await c.request('connect', {
      minProtocol: PROTOCOL_VERSION + 1,
      maxProtocol: PROTOCOL_VERSION + 3,
      client: { id: 'x', name: 'x', version: '9', platform: 'node', mode: 'cli' },
      auth: { token: tokenOf('admin') },
    });
    expect(res.error?.code).toBe('INVALID_REQUEST');
    expect(res.error?.message).toMatch(/protocol version/);
    expect((await c.waitClose()).code).toBe(4002);
  });

  it('[P4] a connect without a string token is a bad token (4001); versions that cannot hold ours, 0..0 too, have none in common (4002)', async () => {
    t = await startTestGateway();
    const client = { id: 'x', name: 'x', version: '9', platform: 'node', mode: 'cli' };
    const base = { minProtocol: PROTOCOL_VERSION, maxProtocol: PROTOCOL_VERSION, client };
    for (const auth of [undefined, {}, { token: 42 }]) {
      const c = await t.open();
      const res = await c.request('connect', { ...base, ...(auth ? { auth } : {}) });
      expect(res.error?.code, JSON.stringify(auth)).toBe('UNAUTHORIZED');
      expect((await c.waitClose()).code).toBe(4001);
    }
    const c = await t.open();
    const res = await c.request('connect', { ...base, minProtocol: 0, maxProtocol: 0, auth: { token: tokenOf('admin') } });
    expect(res.error?.code).toBe('INVALID_REQUEST');
    expect(res.error?.message).toMatch(/protocol version/);
    expect((await c.waitClose()).code).toBe(4002);
    // Any other fault is a bad frame: INVALID_REQUEST naming the field, and the socket stays open for a good connect (P3).
    const d = await t.open();
    const bad = await d.request('connect', { ...base, client: { ...client, mode: 'robot' }, auth: { token: tokenOf('admin') } });
    expect(bad.error?.code).toBe('INVALID_REQUEST');
    expect(bad.error?.message).toMatch(/client\.mode/);
    expect((await d.connect(tokenOf('admin'))).ok).toBe(true);
  });

  it('[P4] no connect within the handshake timeout closes with 4003', async () => {
    t = await startTestGateway({ handshakeTimeoutMs: 50 });
    const c = await t.open();
    expect((await c.waitClose()).code).toBe(CloseCode.handshakeTimeout);
  });

  it('[P4] the handshake timeout defaults to 10 s', async () => {
    const clock = new FakeClock();
    t = await startTestGateway({ clock });
    const c = await t.open();
    await c.waitEvent('connect.challenge');
    const due = clock.now() + 10_000;
    clock.advance(9_999);
    // Its timer is still armed, so it has not fired: nothing is closing the socket (a request before connect would).
    await clock.timerSet(due);
    expect(c.closed).toBeUndefined();
    clock.advance(1);
    expect((await c.waitClose()).code).toBe(4003);
  });

  it('[P3] answers INVALID_REQUEST with id null to a frame that is not JSON, and keeps the socket open', async () => {
    t = await startTestGateway();
    const c = await t.connect('admin');
    c.sendRaw('{not json');
    await c.until(() => c.responses.find((r) => r.id === null));
    const res = c.responses.find((r) => r.id === null)!;
    expect(res.ok).toBe(false);
    expect(res.error?.code).toBe('INVALID_REQUEST');
    expect((await c.call('sessions.list', {})).sessions).toEqual([]);
  });

  it('[P3] answers INVALID_REQUEST with the readable id to a frame of the wrong shape', async () => {
    t = await startTestGateway();
    const c = await t.connect('admin');
    c.sendRaw(JSON.stringify({ type: 'req', id: 'shape-1', params: {} }));
    c.sendRaw(JSON.stringify({ type: 'bogus', id: 'shape-2' }));
    c.sendRaw(JSON.stringify([1, 2, 3]));
    const [a, b] = await Promise.all([
      c.until(() => c.responses.find((r) => r.id === 'shape-1')),
      c.until(() => c.responses.find((r) => r.id === 'shape-2')),
    ]);
    expect(a.error?.code).toBe('INVALID_REQUEST');
    expect(a.error?.details).toEqual([expect.objectContaining({ path: 'method' })]);
    expect(b.error?.code).toBe('INVALID_REQUEST');
    await c.until(() => c.responses.filter((r) => r.id === null).length === 1 || undefined);
    expect(c.ws.readyState).toBe(c.ws.OPEN);
  });

  it('[P3] answers INVALID_REQUEST to a binary frame, with id null', async () => {
    t = await startTestGateway();
    const c = await t.connect('admin');
    c.sendRaw(Buffer.from(JSON.stringify({ type: 'req', id: 'b', method: 'sessions.list' })), true);
    const res = await c.until(() => c.responses.find((r) => r.id === null));
    expect(res.error?.code).toBe('INVALID_REQUEST');
  });

  it('[P3] answers METHOD_NOT_FOUND and keeps the socket open', async () => {
    t = await startTestGateway();
    const c = await t.connect('admin');
    const res = await c.request('sessions.explode', {});
    expect(res.ok).toBe(false);
    expect(res.error?.code).toBe('METHOD_NOT_FOUND');
    expect(res.error?.message).toContain('sessions.explode');
    expect((await c.call('sessions.list', {})).sessions).toEqual([]);
  });

  it('[P3] a frame over maxPayload closes the socket with 1009', async () => {
    t = await startTestGateway({ maxPayload: 2048 });
    const c = await t.connect('admin');
    c.sendRaw(JSON.stringify({ type: 'req', id: 'big', method: 'sessions.create', params: { title: 'x'.repeat(4096) } }));
    expect((await c.waitClose()).code).toBe(CloseCode.tooLarge);
  });

  it('[P3] policy.maxPayload from the config applies when no option is given', async () => {
    const { testConfig } = await import('../../testing/gateway-harness.ts');
    t = await startTestGateway({ config: { ...testConfig, policy: { maxPayload: 1500 } } });
    const c = await t.connect('admin');
    expect(c.hello!.policy.maxPayload).toBe(1500);
    c.sendRaw('x'.repeat(2000));
    expect((await c.waitClose()).code).toBe(1009);
  });

  it('[P2] a second connect on an open socket answers INVALID_REQUEST', async () => {
    t = await startTestGateway();
    const c = await t.connect('admin');
    const res = await c.connect(tokenOf('admin'));
    expect(res.error?.code).toBe('INVALID_REQUEST');
    expect(res.error?.details).toEqual([{ path: 'method', problem: 'connect is sent once per socket, and this one is connected already' }]);
    expect(c.ws.readyState).toBe(c.ws.OPEN);
  });

  it('[P6] sends tick {ts} every tickIntervalMs, without seq', async () => {
    const clock = new FakeClock();
    t = await startTestGateway({ clock, tickIntervalMs: 1000 });
    const c = await t.connect('admin');
    clock.advance(1000);
    clock.advance(1000);
    await c.until(() => (c.eventsNamed('tick').length >= 2 ? true : undefined));
    const ticks = c.events.filter((e) => e.event === 'tick');
    expect(ticks[0].seq).toBeUndefined();
    expect((ticks[1].payload as { ts: number }).ts).toBe(clock.now());
  });

  it('[P6] the tick interval defaults to 15 s', async () => {
    const clock = new FakeClock();
    t = await startTestGateway({ clock, tickIntervalMs: undefined });
    const c = await t.connect('admin');
    expect(c.hello!.policy.tickIntervalMs).toBe(15_000);
    clock.advance(14_999);
    // A tick goes out as its timer fires: one fired by now is on the socket ahead of this answer.
    await roundTrips([c]);
    expect(c.eventsNamed('tick')).toHaveLength(0);
    clock.advance(1);
    await c.waitEvent('tick');
  });

  it('[P2] a cancel frame stops a waitAnswer and nothing is answered for its id', async () => {
    t = await startTestGateway();
    const agent = await t.connect('agent');
    const { id } = await agent.call('question.request', { questions: [item()] });
    const waiting = agent.request('question.waitAnswer', { id }, 'wait-1');
    // A connection's frames are taken up in order: each round trip shows the gateway had the frame sent before it.
    await roundTrips([agent]);
    agent.cancel('wait-1');
    await roundTrips([agent]);
    const admin = await t.connect('admin');
    await admin.call('question.resolve', { id, answers: { env: ['Staging'] } });
    // A wait still running would be woken by the commit of the resolve; a later commit has gone out after it.
    await laterCommit(admin, [agent]);
    expect(agent.responses.find((r) => r.id === 'wait-1')).toBeUndefined();
    // The id is free again once its handler stopped.
    const again = await agent.request('question.waitAnswer', { id }, 'wait-1');
    expect(again.payload).toEqual({ status: 'answered', answers: { env: ['Staging'] } });
    await roundTrips([agent]);
    expect(agent.responses.filter((r) => r.id === 'wait-1')).toHaveLength(1);
    void waiting;
  });

  it('[P2] request ids are unique per connection while in flight', async () => {
    t = await startTestGateway();
    const agent = await t.connect('agent');
    const { id } = await agent.call('question.request', { questions: [item()] });
    void agent.request('question.waitAnswer', { id }, 'dup');
    const second = await agent.request('question.waitAnswer', { id }, 'dup');
    expect(second.error?.code).toBe('INVALID_REQUEST');
    expect(second.error?.message).toContain('in flight');
    // Named as any bad field is: the field, and the rule it broke.
    expect(second.error?.details).toEqual([{ path: 'id', problem: '"dup" is already in flight: request ids are unique per connection' }]);
  });

  it('[errors] rate limiting answers RATE_LIMITED with retryAfterMs, then lets requests through again', async () => {
    // Time held still: five requests sent together find three tokens, however slow the machine.
    holdRealTime();
    t = await startTestGateway({ rateLimit: { burst: 3, perSecond: 1 } });
    const c = await t.connect('admin');
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => c.request('sessions.list', {})));
    const limited = results.filter((r) => r.error?.code === 'RATE_LIMITED');
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(limited).toHaveLength(2);
    expect(limited[0].error?.retryAfterMs).toBeGreaterThan(0);
    expect(limited[0].error?.retryAfterMs).toBeLessThanOrEqual(1000);
    // Not a moment before the time the gateway said, and then again.
    vi.advanceTimersByTime(limited[1].error!.retryAfterMs! - 1);
    expect((await c.request('sessions.list', {})).error?.code).toBe('RATE_LIMITED');
    vi.advanceTimersByTime(1);
    expect((await c.request('sessions.list', {})).ok).toBe(true);
  });

  it('[errors] policy.rateLimit from the config applies', async () => {
    const { testConfig } = await import('../../testing/gateway-harness.ts');
    holdRealTime();
    t = await startTestGateway({ config: { ...testConfig, policy: { rateLimit: { burst: 1, perSecond: 1 } } } });
    const c = await t.connect('admin');
    const [a, b] = await Promise.all([c.request('sessions.list', {}), c.request('sessions.list', {})]);
    expect(a.ok).toBe(true);
    expect(b.error?.code).toBe('RATE_LIMITED');
  });
});
