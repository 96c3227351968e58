import { describe, expect, it } from 'vitest';
import { CloseCode, EVENT_NAMES, METHOD_NAMES, PROTOCOL_VERSION } from '../../protocol/index.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { gatewayPerTest, item, tokenOf } from '../../testing/gateway-harness.ts';

// P1, P4, P5: the socket's path, the challenge, connect and hello-ok; frames after it are in connection-frames.test.ts.
const gateways = gatewayPerTest();

describe('transport and handshake', () => {
  it('[P1] speaks on /ws only; other upgrade paths are refused', async () => {
    const t = await gateways.start();
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
    const t = await gateways.start();
    const c = await t.open();
    const challenge = await c.waitEvent('connect.challenge');
    expect(challenge.nonce.length).toBeGreaterThan(10);
    expect(typeof challenge.ts).toBe('number');
  });

  it('[P5] answers hello-ok with methods, events, auth, policy and a snapshot', async () => {
    const t = await gateways.start({ tickIntervalMs: 5000, maxPayload: 4096 });
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
    const t = await gateways.start();
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
    const t = await gateways.start();
    const c = await t.open();
    const res = await c.request('sessions.list', {});
    expect(res.error?.code).toBe('UNAUTHORIZED');
    expect((await c.waitClose()).code).toBe(CloseCode.unauthorized);
  });

  it('[P4] a bad token answers UNAUTHORIZED and closes with 4001', async () => {
    const t = await gateways.start();
    const c = await t.open();
    const res = await c.connect('not-a-token-at-all');
    expect(res.ok).toBe(false);
    expect(res.error?.code).toBe('UNAUTHORIZED');
    expect((await c.waitClose()).code).toBe(4001);
  });

  it('[P4] no common protocol version answers INVALID_REQUEST and closes with 4002', async () => {
    const t = await gateways.start();
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
    const t = await gateways.start();
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
    const t = await gateways.start({ handshakeTimeoutMs: 50 });
    const c = await t.open();
    expect((await c.waitClose()).code).toBe(CloseCode.handshakeTimeout);
  });

  it('[P4] the handshake timeout defaults to 10 s', async () => {
    const clock = new FakeClock();
    const t = await gateways.start({ clock });
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
});
