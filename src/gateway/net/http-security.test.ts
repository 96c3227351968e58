import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startGateway, type RunningGateway } from '../gateway.ts';
import { clientAddress, hostAllowed, originAllowed, trustedProxySet } from './http-security.ts';
import { testConfig } from '../../testing/gateway-harness.ts';
import { raw, securityGatewaysPerFile, upgrade } from '../../testing/http-probes.ts';
import { silentLogger } from '../infra/logger.ts';

// S1, S3, S4: who may open the socket, which Host is answered, and who the client is behind proxies; the S2 headers
// are in http-security-headers.test.ts.
const gateways = securityGatewaysPerFile();
const logs = gateways.logs;
let dir: string;
let gw: RunningGateway;
let listed: RunningGateway;
beforeAll(() => {
  ({ gw, listed, dir } = gateways);
});

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
