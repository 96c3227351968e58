import { createServer, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { Writable, type Duplex } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../gateway.ts';
import { answerClientError, endRaw, rawRefusal } from './http-security.ts';
import { raw, rawSocket, securityGatewaysPerFile, upgrade } from '../../testing/http-probes.ts';

// S2: the security headers on every HTTP answer, refusals by ws and Node included.
const gateways = securityGatewaysPerFile();
let gw: RunningGateway;
beforeAll(() => {
  gw = gateways.gw;
});

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
