import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../gateway.ts';
import { testConfig } from '../../testing/gateway-harness.ts';
import { silentLogger } from '../infra/logger.ts';

let dir: string;
let gw: RunningGateway;
let bare: RunningGateway;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'askdock-http-'));
  const ui = join(dir, 'dist');
  mkdirSync(join(ui, 'assets'), { recursive: true });
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>askdock ui</title>');
  writeFileSync(join(ui, 'assets', 'app-123.js'), 'console.log(1)');
  writeFileSync(join(ui, 'assets', 'app-123.css'), 'body{}');
  writeFileSync(join(ui, 'icon.svg'), '<svg/>');
  writeFileSync(join(dir, 'secret.txt'), 'do not serve');
  symlinkSync(join(dir, 'secret.txt'), join(ui, 'link.txt'));
  gw = await startGateway({ port: 0, config: testConfig, uiDir: ui, log: silentLogger() });
  bare = await startGateway({ port: 0, config: testConfig, uiDir: join(dir, 'missing-dist'), log: silentLogger() });
});
afterAll(async () => {
  await gw.close();
  await bare.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Raw paths, so `..` reaches the server unnormalised. */
function get(base: string, path: string, method = 'GET'): Promise<{ status: number; type: string; body: string; cache: string }> {
  const url = new URL(base);
  return new Promise((ok, fail) => {
    const req = request({ host: url.hostname, port: url.port, path, method }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => ok({ status: res.statusCode!, type: String(res.headers['content-type']), body, cache: String(res.headers['cache-control']) }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('http', () => {
  it('[P1] GET /healthz answers 200 {ok:true}', async () => {
    const res = await get(gw.url, '/healthz');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/application\/json/);
    expect(JSON.parse(res.body)).toEqual({ ok: true });
  });

  it('[P1] serves the built UI with content types, and index.html for client routes', async () => {
    expect(await get(gw.url, '/')).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', body: expect.stringContaining('askdock ui') });
    expect(await get(gw.url, '/assets/app-123.js')).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8', cache: expect.stringContaining('immutable') });
    expect((await get(gw.url, '/assets/app-123.css')).type).toBe('text/css; charset=utf-8');
    expect((await get(gw.url, '/icon.svg')).type).toBe('image/svg+xml');
    for (const route of ['/s/s_abc', '/q/q_abc', '/q/deploy.v2', '/settings']) {
      expect(await get(gw.url, route), route).toMatchObject({ status: 200, body: expect.stringContaining('askdock ui') });
    }
    expect((await get(gw.url, '/assets/missing.js')).status).toBe(404);
    expect((await get(gw.url, '/healthz', 'POST')).status).toBe(405);
  });

  it('[P1] never serves files outside the UI directory', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/link.txt', '/%00', '/..%5csecret.txt']) {
      const res = await get(gw.url, path);
      expect(res.body, path).not.toContain('do not serve');
    }
  });

  it('[P1] without a built UI, says so and how to build it', async () => {
    const res = await get(bare.url, '/');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/text\/html/);
    expect(res.body).toContain('npm run build');
    expect((await get(bare.url, '/s/abc')).body).toContain('not built');
  });
});
