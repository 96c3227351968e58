import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import WebSocket from 'ws';
import { startGateway, type RunningGateway } from '../gateway/gateway.ts';
import { memoryLogger, silentLogger } from '../gateway/infra/logger.ts';
import { testConfig } from './gateway-harness.ts';

/** The calling file's gateways, up from before its first test to after its last. */
export type SecurityGateways = {
  /** The default gateway on loopback (its log lines in `logs`). */
  readonly gw: RunningGateway;
  /** One with an allowedOrigins and an allowedHosts entry. */
  readonly listed: RunningGateway;
  readonly logs: string[];
  /** A folder of their own, with the built-UI stand-in in `dist/`. */
  readonly dir: string;
};

/** Starts the S1-S3 tests' gateways, serving a stand-in UI (index.html and assets/app-1.js), before the calling file's tests. */
export function securityGatewaysPerFile(): SecurityGateways {
  let up: { gw: RunningGateway; listed: RunningGateway; dir: string } | undefined;
  const { log: memLog, lines: logs } = memoryLogger();
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'askdock-sec-http-'));
    const ui = join(dir, 'dist');
    mkdirSync(join(ui, 'assets'), { recursive: true });
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>askdock ui</title>');
    writeFileSync(join(ui, 'assets', 'app-1.js'), 'console.log(1)');
    const gw = await startGateway({ port: 0, config: testConfig, uiDir: ui, log: memLog });
    const listed = await startGateway({
      port: 0,
      config: { ...testConfig, allowedOrigins: ['https://tools.team.example'], allowedHosts: ['askdock.team.example'] },
      uiDir: ui,
      log: silentLogger(),
    });
    up = { gw, listed, dir };
  });
  afterAll(async () => {
    if (!up) return;
    await up.gw.close();
    await up.listed.close();
    rmSync(up.dir, { recursive: true, force: true });
  });
  const now = () => {
    if (!up) throw new Error('securityGatewaysPerFile: no gateways outside the tests');
    return up;
  };
  return {
    get gw() {
      return now().gw;
    },
    get listed() {
      return now().listed;
    },
    get dir() {
      return now().dir;
    },
    logs,
  };
}

export type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/** A raw request with exactly the headers an attacker would choose. */
export function raw(g: RunningGateway, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
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
export function upgrade(g: RunningGateway, headers: Record<string, string> = {}, path = '/ws'): Promise<{ status: number; headers?: IncomingHttpHeaders }> {
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
export function rawSocket(g: RunningGateway, text: string): Promise<{ status: number; headers: Record<string, string> }> {
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
