import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig, Authenticator, checkTokenLengths, ConfigError } from '../auth.ts';
import { DEFAULT_MAX_BAD_FRAMES_BEFORE_CONNECT } from '../gateway.ts';
import { CloseCode } from '../../protocol/index.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { item, startTestGateway, testConfig, tokenOf, type TestGateway } from '../../testing/gateway-harness.ts';
import { TestClient } from '../../testing/ws-client.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const badToken = 'not-the-token-of-anyone-at-all';

async function tryConnect(g: TestGateway, token: string, forwardedFor?: string) {
  const c = forwardedFor === undefined ? await g.open() : await TestClient.open(g.gw.wsUrl, { 'x-forwarded-for': forwardedFor });
  const res = await c.connect(token);
  const closed = await c.waitClose().catch(() => undefined);
  return { res, closed };
}

describe('S4 failed connects per remote address', () => {
  it('[S4] after 10 failed connects within a minute, even a good token gets RATE_LIMITED with retryAfterMs and 4001', async () => {
    const clock = new FakeClock();
    t = await startTestGateway({ clock, handshakeTimeoutMs: 10_000_000 });
    for (let i = 0; i < 10; i++) {
      const { res, closed } = await tryConnect(t, badToken);
      expect(res.error?.code).toBe('UNAUTHORIZED');
      expect(closed?.code).toBe(4001);
    }
    const locked = await tryConnect(t, tokenOf('admin'));
    expect(locked.res.error?.code).toBe('RATE_LIMITED');
    expect(locked.res.error?.retryAfterMs).toBeGreaterThan(0);
    expect(locked.res.error?.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(locked.closed?.code).toBe(4001);
    // Guessing on while locked out learns nothing: the answer does not depend on the token.
    expect((await tryConnect(t, badToken)).res.error?.code).toBe('RATE_LIMITED');
    expect(t.logs.some((l) => /unknown token from .*127\.0\.0\.1/.test(l))).toBe(true);
    clock.advance(locked.res.error!.retryAfterMs!);
    const after = await t.open();
    expect((await after.connect(tokenOf('admin'))).ok).toBe(true);
    t.logs.length = 0;
  });

  it('[S4] behind a proxy named in trustedProxies, each client address is limited alone: one stale script locks out only its own', async () => {
    const clock = new FakeClock();
    t = await startTestGateway({ clock, handshakeTimeoutMs: 10_000_000, config: { ...testConfig, trustedProxies: ['127.0.0.1'] } });
    // nginx appends the address it saw; what the client wrote to the left of it counts for nothing.
    for (let i = 0; i < 10; i++) expect((await tryConnect(t, badToken, `198.51.100.${i}, 203.0.113.7`)).res.error?.code).toBe('UNAUTHORIZED');
    const locked = await tryConnect(t, tokenOf('admin'), '203.0.113.7');
    expect(locked.res.error?.code).toBe('RATE_LIMITED');
    expect(locked.res.error?.retryAfterMs).toBeGreaterThan(0);
    expect(locked.closed?.code).toBe(4001);
    expect(t.logs.some((l) => /unknown token from .*203\.0\.113\.7/.test(l))).toBe(true);
    // Another person behind the same proxy, and a connection that does not come through it, get in.
    const admitted = async (forwardedFor?: string) => {
      const c = forwardedFor === undefined ? await t!.open() : await TestClient.open(t!.gw.wsUrl, { 'x-forwarded-for': forwardedFor });
      return (await c.connect(tokenOf('admin'))).ok;
    };
    expect(await admitted('203.0.113.8')).toBe(true);
    expect(await admitted()).toBe(true);
    clock.advance(locked.res.error!.retryAfterMs!);
    expect(await admitted('203.0.113.7')).toBe(true);
    t.logs.length = 0;
  });

  it('[S4] behind two listed proxies, the right-most X-Forwarded-For entry that is not a listed proxy is the one limited', async () => {
    const clock = new FakeClock();
    t = await startTestGateway({ clock, handshakeTimeoutMs: 10_000_000, config: { ...testConfig, trustedProxies: ['127.0.0.1', '10.0.0.2'] } });
    // The client wrote a different left-most entry each time; the inner proxy 10.0.0.2 added the client's address.
    for (let i = 0; i < 10; i++) expect((await tryConnect(t, badToken, `198.51.100.${i}, 203.0.113.7, 10.0.0.2`)).res.error?.code).toBe('UNAUTHORIZED');
    const locked = await tryConnect(t, tokenOf('admin'), '203.0.113.7, 10.0.0.2');
    expect(locked.res.error?.code).toBe('RATE_LIMITED');
    expect(locked.closed?.code).toBe(4001);
    expect(t.logs.filter((l) => /unknown token from /.test(l)).every((l) => /203\.0\.113\.7/.test(l))).toBe(true);
    // Someone else behind the same two proxies is not the inner proxy's address: it gets in.
    const other = await TestClient.open(t.gw.wsUrl, { 'x-forwarded-for': '203.0.113.8, 10.0.0.2' });
    expect((await other.connect(tokenOf('admin'))).ok).toBe(true);
    t.logs.length = 0;
  });

  it('[S4] without trustedProxies X-Forwarded-For is ignored: a client cannot escape the limit by writing one', async () => {
    t = await startTestGateway({ handshakeTimeoutMs: 10_000_000 });
    for (let i = 0; i < 10; i++) await tryConnect(t, badToken, `198.51.100.${i}`);
    expect((await tryConnect(t, tokenOf('admin'), '198.51.100.99')).res.error?.code).toBe('RATE_LIMITED');
    t.logs.length = 0;
  });

  it('[S4] trustedProxies must list IP addresses; the error names the field', () => {
    expect(() => parseConfig({ ...testConfig, trustedProxies: ['nginx.internal'] }, 'config')).toThrow(/trustedProxies\[0\]: trustedProxies lists IP addresses/);
    expect(parseConfig({ ...testConfig, trustedProxies: ['127.0.0.1', '::1'] }, 'config').trustedProxies).toEqual(['127.0.0.1', '::1']);
  });

  it('[S4] failures older than the window do not count', async () => {
    const clock = new FakeClock();
    t = await startTestGateway({ clock, handshakeTimeoutMs: 10_000_000, loginLimit: { maxFailures: 3, windowMs: 60_000 } });
    for (let i = 0; i < 2; i++) await tryConnect(t, badToken);
    clock.advance(60_001);
    for (let i = 0; i < 2; i++) await tryConnect(t, badToken);
    const c = await t.open();
    expect((await c.connect(tokenOf('admin'))).ok).toBe(true);
    t.logs.length = 0;
  });

  it('[S4] a config identity may give tokenSha256 instead of token', async () => {
    const secret = 'a-token-only-its-owner-knows-1234';
    const sha = createHash('sha256').update(secret).digest('hex');
    t = await startTestGateway({
      config: { identities: [...testConfig.identities, { id: 'hashed', tokenSha256: sha, role: 'operator', scopes: ['operator.admin'] }] },
    });
    const c = await t.open();
    expect((await c.connect(secret)).ok).toBe(true);
    expect(c.hello?.auth.identity).toBe('hashed');
    const wrong = await t.open();
    expect((await wrong.connect(sha)).error?.code).toBe('UNAUTHORIZED');
    t.logs.length = 0;
  });

  it('[S4] tokens shorter than 24 characters: refused at start beyond loopback naming the field, accepted with a warning on loopback', async () => {
    const short = { identities: [{ id: 'ops', token: 'only-twenty-characters'.slice(0, 20), role: 'operator' as const, scopes: ['operator.admin' as const] }] };
    const config = parseConfig(short, 'config x.json');
    const warned: string[] = [];
    expect(() => checkTokenLengths(config, 'config x.json', false, (l) => warned.push(l))).toThrow(ConfigError);
    expect(() => checkTokenLengths(config, 'config x.json', false, (l) => warned.push(l))).toThrow(
      /config x\.json: identities\[0\]\.token: token must be at least 24 characters.*beyond loopback/,
    );
    expect(warned).toEqual([]);
    checkTokenLengths(config, 'config x.json', true, (l) => warned.push(l));
    expect(warned).toEqual([expect.stringMatching(/identities\[0\]\.token: token must be at least 24 characters.*loopback only/)]);
    // A gateway on a network address does not start; on loopback it starts and the short token works.
    await expect(startTestGateway({ host: '0.0.0.0', config: short })).rejects.toThrow(/identities\[0\]\.token: token must be at least 24/);
    // Identities saved beside the database are checked too, and the refusal names that file.
    const dir = mkdtempSync(join(tmpdir(), 'askdock-short-'));
    writeFileSync(join(dir, 'identities.json'), JSON.stringify(short));
    await expect(startTestGateway({ host: '0.0.0.0', dir, config: undefined })).rejects.toThrow(
      `config ${join(dir, 'identities.json')}: identities[0].token: token must be at least 24`,
    );
    rmSync(dir, { recursive: true, force: true });
    t = await startTestGateway({ config: short });
    const c = await t.open();
    expect((await c.connect('only-twenty-characte')).ok).toBe(true);
    expect(t.logs.some((l) => /identities\[0\]\.token: token must be at least 24 characters/.test(l))).toBe(true);
    t.logs.length = 0;
    expect(() => parseConfig({ identities: [{ id: 'ops', token: '', role: 'operator', scopes: [] }] }, 'c')).toThrow(/identities\[0\]\.token: token must not be empty/);
    expect(() => parseConfig({ identities: [{ id: 'ops', role: 'operator', scopes: [] }] }, 'c')).toThrow(/give token or tokenSha256/);
    expect(() => parseConfig({ identities: [{ id: 'o', tokenSha256: 'abc', role: 'operator', scopes: [] }] }, 'c')).toThrow(/64 hex digits/);
  });

  it("[U17] the config's push section: allowedEndpoints must be URLs and subject mailto: or https:, each named", () => {
    const identities = testConfig.identities;
    expect(parseConfig({ identities, push: { allowedEndpoints: ['https://push.example'], subject: 'mailto:ops@example.com' } }, 'c').push).toEqual({
      allowedEndpoints: ['https://push.example'],
      subject: 'mailto:ops@example.com',
    });
    expect(() => parseConfig({ identities, push: { allowedEndpoints: ['push.example'] } }, 'c')).toThrow(/push\.allowedEndpoints\[0\].*must list http:\/\/ or https:\/\/ URLs/);
    // An address without an http(s) origin (its origin reads "null") would open every opaque-origin endpoint.
    expect(() => parseConfig({ identities, push: { allowedEndpoints: ['mailto:ops@example.com'] } }, 'c')).toThrow(/push\.allowedEndpoints\[0\]/);
    expect(() => parseConfig({ identities, push: { subject: 'ops@example.com' } }, 'c')).toThrow(/push\.subject.*mailto: or https/);
  });

  it('[S4] compares every identity, so a token matches only its own identity and a prefix matches none', () => {
    const auth = new Authenticator(testConfig);
    expect(auth.authenticate(tokenOf('agent'))?.id).toBe('agent');
    expect(auth.authenticate(tokenOf('agent').slice(0, -1))).toBeUndefined();
    expect(auth.authenticate('')).toBeUndefined();
  });
});

describe('request and frame limits', () => {
  it('[S4] request limits hold per identity across its connections, with an honest retryAfterMs', async () => {
    t = await startTestGateway({ rateLimit: { burst: 4, perSecond: 0.5 } });
    const a = await t.connect('admin');
    const b = await t.connect('admin');
    const other = await t.connect('reader');
    const results = await Promise.all([a, b, a, b, a, b].map((c) => c.request('sessions.list', {})));
    expect(results.filter((r) => r.ok)).toHaveLength(4);
    const limited = results.filter((r) => r.error?.code === 'RATE_LIMITED');
    expect(limited).toHaveLength(2);
    // At half a token per second the next one is about two seconds away, and the answer says so.
    for (const r of limited) {
      expect(r.error?.retryAfterMs).toBeGreaterThan(1000);
      expect(r.error?.retryAfterMs).toBeLessThanOrEqual(2000);
      expect(r.error?.retryable).toBe(true);
    }
    // Another identity has its own budget.
    expect((await other.request('sessions.list', {})).ok).toBe(true);
  });

  it('[S5] frames past the frame limit wait unparsed while the socket is paused; none is lost', async () => {
    t = await startTestGateway({ frameLimit: { burst: 5, perSecond: 0.001 } });
    const c = await t.open();
    for (let i = 0; i < 8; i++) c.sendRaw('{"not":"a frame"}');
    await c.until(() => (c.responses.length >= 5 ? true : undefined));
    // Nothing after the held frames is read, so the barrier is the gateway's own shutdown: its close frame is the last
    // thing on the socket, behind anything it answered, and a socket it had closed before would not get it.
    await t.gw.close();
    expect((await c.waitClose(15_000)).code).toBe(CloseCode.goingAway);
    // The budget allowed five; the other three were held, not answered, and the socket stayed open until then.
    expect(c.responses).toHaveLength(5);
  });

  it(`[S5][P3] a socket that sends ${DEFAULT_MAX_BAD_FRAMES_BEFORE_CONNECT} bad frames before connect is closed with 1008; fewer leave it open`, async () => {
    t = await startTestGateway();
    const bad = (i: number) => (i % 3 === 0 ? Buffer.from([0, 1, 2]) : i % 3 === 1 ? '{bad json' : '{"type":"nope"}');
    const few = await t.open();
    for (let i = 0; i < 20; i++) few.sendRaw(bad(i), i % 3 === 0);
    await few.until(() => (few.responses.length >= 20 ? true : undefined));
    expect(few.closed).toBeUndefined();
    expect((await few.connect(tokenOf('admin'))).ok).toBe(true);

    const c = await t.open();
    for (let i = 0; i < DEFAULT_MAX_BAD_FRAMES_BEFORE_CONNECT + 2; i++) c.sendRaw(bad(i), i % 3 === 0);
    const closed = await c.waitClose();
    expect(closed.code).toBe(1008);
    expect(closed.reason).toContain('bad frames before connect');
    expect(c.responses.length).toBe(DEFAULT_MAX_BAD_FRAMES_BEFORE_CONNECT);
    expect(c.responses.every((r) => r.error?.code === 'INVALID_REQUEST')).toBe(true);
    t.logs.length = 0;
  });

  it('[P3] after connect, bad frames still answer INVALID_REQUEST and the socket stays open', async () => {
    t = await startTestGateway();
    const c = await t.connect('admin');
    for (let i = 0; i < 20; i++) c.sendRaw('{bad json');
    await c.until(() => (c.responses.filter((r) => r.id === null).length >= 20 ? true : undefined));
    expect(c.closed).toBeUndefined();
    expect((await c.request('sessions.list', {})).ok).toBe(true);
  });

  it('[S5] an agent may hold at most maxPendingQuestions pending questions', async () => {
    t = await startTestGateway({ maxPendingQuestions: 2 });
    const agent = await t.connect('agent');
    await agent.call('question.request', { mode: 'async', questions: [item()] });
    await agent.call('question.request', { questions: [item()], timeoutMs: 60_000 });
    const third = await agent.request('question.request', { mode: 'async', questions: [item()] });
    expect(third.error?.code).toBe('RATE_LIMITED');
    expect(third.error?.retryAfterMs).toBeGreaterThan(0);
    expect(third.error?.details).toEqual({ pending: 2, limit: 2 });
    // Another agent is not held back by it.
    const other = await t.connect('agent2');
    expect((await other.request('question.request', { questions: [item()] })).ok).toBe(true);
  });

  it('[P5] a hello-ok never exceeds maxPayload: the snapshot is cut and says hasMore', async () => {
    t = await startTestGateway({ maxPayload: 16 * 1024, maxPendingQuestions: 1000 });
    const agent = await t.connect('agent');
    const long = 'x'.repeat(900);
    for (let i = 0; i < 40; i++) await agent.call('question.request', { mode: 'async', questions: [item({ question: long })] });
    const admin = await TestClient.open(t.gw.wsUrl);
    t.clients.push(admin);
    let size = 0;
    admin.ws.on('message', (d) => (size = Math.max(size, (d as Buffer).length)));
    expect((await admin.connect(tokenOf('admin'))).ok).toBe(true);
    expect(size).toBeLessThanOrEqual(16 * 1024);
    expect(admin.hello?.snapshot.hasMore).toBe(true);
    expect(admin.hello!.snapshot.pendingQuestions.length).toBeGreaterThan(0);
    expect(admin.hello!.snapshot.pendingQuestions.length).toBeLessThan(40);
    const all = await admin.call('question.list', { status: 'pending' });
    expect(all.questions).toHaveLength(40);
  });
});

describe('S6 slow consumers', () => {
  it('[S6] a connection that stops reading is closed with 1008 once its unsent data passes the limit', async () => {
    t = await startTestGateway({ rateLimit: { burst: 10_000, perSecond: 10_000 }, maxBufferedBytes: 256 * 1024 });
    const writer = await t.connect('admin');
    const { session } = await writer.call('sessions.create', { title: 'flood' });
    const slow = await t.connect('admin');
    slow.ws.pause();
    const text = 'y'.repeat(30_000);
    // Far more than loopback's socket buffers can hide, so the gateway itself must hold (or drop) the rest.
    for (let i = 0; i < 600 && !t.logs.some((l) => l.includes('unsent')); i++) {
      await writer.call('chat.send', { sessionKey: session.key, message: text, idempotencyKey: `flood-key-${i}` });
    }
    expect(t.logs.some((l) => l.includes('unsent'))).toBe(true);
    slow.ws.resume();
    const closed = await slow.waitClose(20_000);
    expect(closed.code).toBe(1008);
    expect(closed.reason).toContain('slow consumer');
    // The writer, reading as it should, is untouched.
    expect((await writer.request('sessions.list', {})).ok).toBe(true);
    t.logs.length = 0;
  }, 60_000);
});
