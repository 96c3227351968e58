import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { Writable, type Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startGateway, type RunningGateway } from '../gateway.ts';
import { answerClientError, clientAddress, endRaw, hostAllowed, originAllowed, rawRefusal, trustedProxySet } from './http-security.ts';
import { testConfig } from '../../testing/gateway-harness.ts';
import { memoryLogger, silentLogger } from '../infra/logger.ts';

let dir: string;
let gw: RunningGateway;
let listed: RunningGateway;
const { log: memLog, lines: logs } = memoryLogger();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'askdock-sec-http-'));
  const ui = join(dir, 'dist');
  mkdirSync(join(ui, 'assets'), { recursive: true });
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>askdock ui</title>');
  writeFileSync(join(ui, 'assets', 'app-1.js'), 'console.log(1)');
  gw = await startGateway({ port: 0, config: testConfig, uiDir: ui, log: memLog });
  listed = await startGateway({
    port: 0,
    config: { ...testConfig, allowedOrigins: ['https://tools.team.example'], allowedHosts: ['askdock.team.example'] },
    uiDir: ui,
    log: silentLogger(),
  });
});
afterAll(async () => {
  await gw.close();
  await listed.close();
  rmSync(dir, { recursive: true, force: true });
});

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/** A raw request with exactly the headers an attacker would choose. */
function raw(g: RunningGateway, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: g.port, path, method, headers, setHost: !('host' in headers) }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => ok({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** Tries a WebSocket upgrade; resolves with the HTTP status of a refusal, or 101 once open (then closes). */
function upgrade(g: RunningGateway, headers: Record<string, string> = {}, path = '/ws'): Promise<{ status: number; headers?: IncomingHttpHeaders }> {
  return new Promise((ok, fail) => {
    const ws = new WebSocket(`ws://127.0.0.1:${g.port}${path}`, { headers });
    ws.once('open', () => {
      ws.close();
      ok({ status: 101 });
    });
    ws.once('unexpected-response', (_req, res) => {
      ok({ status: res.statusCode!, headers: res.headers });
      res.resume();
      ws.terminate();
    });
    ws.once('error', (err) => fail(err));
  });
}

/** Sends `text` on a plain socket and reads the raw answer back: a status line and headers Node's client would refuse. */
function rawSocket(g: RunningGateway, text: string): Promise<{ status: number; headers: Record<string, string> }> {
  return new Promise((ok, fail) => {
    const socket = connect(g.port, '127.0.0.1', () => socket.write(text));
    let got = '';
    socket.on('data', (c) => (got += c));
    socket.on('error', fail);
    socket.on('close', () => {
      const [head] = got.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      ok({ status: Number(statusLine.split(' ')[1]), headers });
    });
  });
}

function expectS2(headers: IncomingHttpHeaders | undefined) {
  const csp = String(headers?.['content-security-policy']);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(headers?.['x-frame-options']).toBe('DENY');
  expect(headers?.['referrer-policy']).toBe('no-referrer');
  expect(headers?.['x-content-type-options']).toBe('nosniff');
}

describe('S1 Origin check on the WebSocket upgrade', () => {
  it('[S1] refuses a browser upgrade from another origin with 403 before any frame', async () => {
    const got = await upgrade(gw, { origin: 'https://evil.example' });
    expect(got.status).toBe(403);
    expect(logs.some((l) => l.includes('https://evil.example'))).toBe(true);
  });

  it('[S1] refuses an opaque ("null") origin, such as a sandboxed frame or a file page', async () => {
    expect((await upgrade(gw, { origin: 'null' })).status).toBe(403);
  });

  it('[S1] lets in the gateway\'s own origin and clients that send no Origin', async () => {
    expect((await upgrade(gw, { origin: `http://127.0.0.1:${gw.port}` })).status).toBe(101);
    expect((await upgrade(gw, { origin: `http://localhost:${gw.port}`, host: `localhost:${gw.port}` })).status).toBe(101);
    expect((await upgrade(gw)).status).toBe(101);
  });

  it('[S1] refuses the same host on another port (another origin)', async () => {
    expect((await upgrade(gw, { origin: `http://127.0.0.1:${gw.port + 1}` })).status).toBe(403);
  });

  it('[S1] lets in an origin listed in allowedOrigins, and still no other', async () => {
    expect((await upgrade(listed, { origin: 'https://tools.team.example' })).status).toBe(101);
    expect((await upgrade(listed, { origin: 'https://tools.team.example.evil.example' })).status).toBe(403);
  });

  it('[S1] a refused socket can never connect: no challenge, no hello', async () => {
    const ws = new WebSocket(gw.wsUrl, { origin: 'https://evil.example' });
    const frames: string[] = [];
    ws.on('message', (d) => frames.push(String(d)));
    await new Promise((done) => ws.once('error', done));
    expect(frames).toEqual([]);
  });
});

describe('S2 security headers on every HTTP answer', () => {
  it('[S2] the UI, assets, /healthz, 404, 405 and refusals carry CSP, X-Frame-Options, Referrer-Policy and nosniff', async () => {
    for (const path of ['/', '/s/abc', '/assets/app-1.js', '/healthz', '/missing.js']) expectS2((await raw(gw, path)).headers);
    expectS2((await raw(gw, '/', {}, 'POST')).headers);
    expectS2((await raw(gw, '/', { host: 'evil.example' })).headers);
    expectS2((await upgrade(gw, { origin: 'https://evil.example' })).headers);
    expectS2((await upgrade(gw, {}, '/elsewhere')).headers);
  });

  it('[S2] what ws and Node refuse by themselves carries them too: a bad handshake, a wrong method, an unreadable request', async () => {
    const host = `127.0.0.1:${gw.port}`;
    const upgradeHead = (method: string, extra: string) =>
      `${method} /ws HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n${extra}\r\n`;
    const key = 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';
    const badVersion = await rawSocket(gw, upgradeHead('GET', `${key}Sec-WebSocket-Version: 99\r\n`));
    expect(badVersion.status).toBe(400);
    expect(badVersion.headers['sec-websocket-version']).toBe('13, 8');
    expectS2(badVersion.headers);
    const noKey = await rawSocket(gw, upgradeHead('GET', 'Sec-WebSocket-Version: 13\r\n'));
    expect(noKey.status).toBe(400);
    expectS2(noKey.headers);
    const post = await rawSocket(gw, upgradeHead('POST', `${key}Sec-WebSocket-Version: 13\r\n`));
    expect(post.status).toBe(405);
    expectS2(post.headers);
    const garbled = await rawSocket(gw, 'GET / HTTP/1.1\r\nthis is no header\r\n\r\n');
    expect(garbled.status).toBe(400);
    expectS2(garbled.headers);
  });

  it('[S2] connect-src allows the gateway\'s own ws and wss address and no other', async () => {
    const csp = String((await raw(gw, '/')).headers['content-security-policy']);
    const connect = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('connect-src'));
    expect(connect).toBe(`connect-src 'self' ws://127.0.0.1:${gw.port} wss://127.0.0.1:${gw.port}`);
  });
});

describe('S3 Host check on a loopback gateway (DNS rebinding)', () => {
  it('[S3] answers 421 to a Host that is not loopback, on pages, /healthz and the socket', async () => {
    for (const path of ['/', '/healthz', '/assets/app-1.js']) {
      const got = await raw(gw, path, { host: `evil.example:${gw.port}` });
      expect(got.status).toBe(421);
      expect(got.body).not.toContain('askdock ui');
    }
    expect((await upgrade(gw, { host: `evil.example:${gw.port}` })).status).toBe(421);
    expect((await upgrade(gw, { host: `evil.example:${gw.port}`, origin: `http://evil.example:${gw.port}` })).status).toBe(421);
  });

  it('[S3] answers loopback names with its own port', async () => {
    for (const name of ['127.0.0.1', 'localhost', '[::1]', 'LOCALHOST']) expect((await raw(gw, '/healthz', { host: `${name}:${gw.port}` })).status).toBe(200);
  });

  it('[S3] refuses a missing or malformed Host', async () => {
    expect((await raw(gw, '/healthz', { host: '' })).status).toBe(421);
    expect((await raw(gw, '/healthz', { host: 'a b' })).status).toBe(421);
  });

  it('[S3] answers a name listed in allowedHosts', async () => {
    expect((await raw(listed, '/healthz', { host: 'askdock.team.example' })).status).toBe(200);
    expect((await raw(listed, '/healthz', { host: 'other.team.example' })).status).toBe(421);
  });

  it('[S3] a gateway on every address answers any Host unless allowedHosts narrows it', () => {
    const open = { loopback: false, allowedHosts: [], allowedOrigins: [] };
    expect(hostAllowed(open, 'gw.lan:7420', 7420)).toBe(true);
    const narrowed = { ...open, allowedHosts: ['gw.lan'] };
    expect(hostAllowed(narrowed, 'gw.lan:7420', 7420)).toBe(true);
    expect(hostAllowed(narrowed, 'rebound.example:7420', 7420)).toBe(false);
    expect(hostAllowed(narrowed, 'localhost:7420', 7420)).toBe(true);
  });

  it('[S1] behind a TLS proxy the own origin is the https one of the forwarded Host', () => {
    const policy = { loopback: false, allowedHosts: [], allowedOrigins: [] };
    expect(originAllowed(policy, 'https://askdock.team.example', 'askdock.team.example')).toBe(true);
    expect(originAllowed(policy, 'https://evil.example', 'askdock.team.example')).toBe(false);
  });
});

describe('raw refusals of what Node and ws could not read', () => {
  it('[S2] a request that takes too long is answered 408 Request Timeout, with the S2 headers', async () => {
    const server = createServer({ requestTimeout: 200, headersTimeout: 200, connectionsCheckingInterval: 20 }, (_req, res) => res.end('ok'));
    server.on('clientError', answerClientError);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    try {
      // The request line and no end of headers: Node gives up on it after requestTimeout.
      const got = await rawSocket({ port } as RunningGateway, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
      expect(got.status).toBe(408);
      expectS2(got.headers);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('[S2] a socket whose response already began is destroyed, not sent a second status line', () => {
    const written: string[] = [];
    let destroyed = false;
    const socket = Object.assign(new Writable({ write: (c, _e, done) => (written.push(String(c)), done()) }), {
      _httpMessage: { headersSent: true },
    });
    socket.destroy = (() => ((destroyed = true), socket)) as typeof socket.destroy;
    answerClientError(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket as unknown as Duplex);
    expect(written).toEqual([]);
    expect(destroyed).toBe(true);
  });

  it('[S2] a refused socket is destroyed once its answer is flushed, even when the client never closes its side', async () => {
    const server = createNetServer({ allowHalfOpen: true }, (socket) => endRaw(socket, rawRefusal(400, undefined, 'bad request')));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    const client = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let got = '';
    client.on('data', (c) => (got += c));
    try {
      await new Promise((ok) => client.once('end', ok));
      expect(got).toMatch(/^HTTP\/1.1 400 Bad Request/);
      const open = () => new Promise<number>((ok) => server.getConnections((_e, n) => ok(n)));
      await expect.poll(open).toBe(0);
    } finally {
      client.destroy();
      server.close();
    }
  });
});

describe('S1/S3 refusals that differ only by the port name the cause', () => {
  let proxied: RunningGateway;
  beforeAll(async () => {
    const config = { ...testConfig, allowedHosts: ['askdock.team.example:8443', 'proxy.team.example'] };
    proxied = await startGateway({ port: 0, config, uiDir: join(dir, 'dist'), log: silentLogger() });
  });
  afterAll(() => proxied.close());
  const upgradeHeaders = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };

  it('[S3] a Host whose port a proxy dropped ($host) is refused with 421 saying so, on pages and the socket', async () => {
    for (const headers of [{ host: 'askdock.team.example' }, { ...upgradeHeaders, host: 'askdock.team.example' }]) {
      const got = await raw(proxied, '/ws', headers);
      expect(got.status).toBe(421);
      expect(got.body).toContain('"askdock.team.example" differs from allowedHosts "askdock.team.example:8443" only by the port');
      expect(got.body).toContain('proxy_set_header Host $http_host');
    }
    const other = await raw(proxied, '/healthz', { host: 'other.team.example' });
    expect(other.status).toBe(421);
    expect(other.body).toBe('misdirected request: this gateway does not answer to that Host: "other.team.example" is not in allowedHosts\n');
  });

  it('[S1] an Origin that differs from the Host only by the port is refused with 403 saying so', async () => {
    const got = await raw(proxied, '/ws', { ...upgradeHeaders, host: 'proxy.team.example', origin: 'https://proxy.team.example:8443' });
    expect(got.status).toBe(403);
    expect(got.body).toContain('origin "https://proxy.team.example:8443" differs from the Host "proxy.team.example" only by the port');
    const evil = await raw(proxied, '/ws', { ...upgradeHeaders, host: 'proxy.team.example', origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.body).toBe('forbidden: this origin may not open the gateway socket; list it in allowedOrigins\n');
  });
});

describe('S4 client address behind proxies', () => {
  const two = trustedProxySet(['127.0.0.1', '10.0.0.2']);
  it('[S4] with two listed proxies the client is the right-most entry that is not one of them, not the first or last written', () => {
    expect(clientAddress('127.0.0.1', '203.0.113.7, 10.0.0.2', two)).toBe('203.0.113.7');
    // What the client wrote to the left counts for nothing.
    expect(clientAddress('127.0.0.1', '198.51.100.9, 203.0.113.7, 10.0.0.2', two)).toBe('203.0.113.7');
    expect(clientAddress('::ffff:127.0.0.1', ['198.51.100.9', '203.0.113.7:51234, 10.0.0.2'], two)).toBe('203.0.113.7');
  });

  it('[S4] a peer that is not a listed proxy is the client, whatever its header says', () => {
    expect(clientAddress('192.0.2.5', '203.0.113.7, 10.0.0.2', two)).toBe('192.0.2.5');
  });
});
