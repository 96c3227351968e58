import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect as tcpConnect } from 'node:net';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from '../../testing/gateway-child.ts';
import { clusterPerTest } from '../../testing/gateway-cluster.ts';
import { item, testConfig, tokenOf, type Who } from '../../testing/gateway-harness.ts';
import { freePort } from '../../testing/restartable-gateway.ts';
import { TestClient } from '../../testing/ws-client.ts';

// The nginx config docs/deploy.md gives, run for real in front of three gateways on one PostgreSQL database.
// `.ci/run` installs nginx where it is missing.
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => spawnSync(p, ['-v']).status === 0);
const PUBLIC = 'askdock.example.com';
const LONG = { timeout: 180_000 };

let nginx: ChildProcess | undefined;
const clients: TestClient[] = [];

/** The documented config with the ports and temp paths of this run; each rewrite must find what the doc says. */
function docConfig(listen: number, upstreams: number[], dir: string): string {
  let conf = readFileSync(join(REPO, 'docs/deploy/nginx.conf'), 'utf8');
  const swap = (from: string | RegExp, to: string) => {
    const next = conf.replace(from, to);
    if (next === conf) throw new Error(`docs/deploy/nginx.conf no longer has ${from}`);
    conf = next;
  };
  swap(/listen 7420;/, `listen 127.0.0.1:${listen};`);
  upstreams.forEach((port, i) => swap(`server 127.0.0.1:${7421 + i} `, `server 127.0.0.1:${port} `));
  swap(/\/tmp\/askdock-nginx/g, join(dir, 'nginx'));
  return conf;
}

function listening(port: number, deadline: number): Promise<void> {
  return new Promise((ok, fail) => {
    const attempt = () => {
      const s = tcpConnect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), ok()));
      s.once('error', () => (Date.now() > deadline ? fail(new Error(`nothing listens on ${port}`)) : setTimeout(attempt, 100)));
    };
    attempt();
  });
}

function get(port: number, path: string, host: string): Promise<number> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      res.resume();
      ok(res.statusCode ?? 0);
    });
    req.once('error', fail);
    req.end();
  });
}

async function throughProxy(port: number, who: Who): Promise<TestClient> {
  const c = await TestClient.open(`ws://127.0.0.1:${port}/ws`, { host: `${PUBLIC}:${port}` });
  clients.push(c);
  const res = await c.connect(tokenOf(who));
  if (!res.ok) throw new Error(`connect through nginx failed: ${JSON.stringify(res.error)}`);
  return c;
}

async function askAndAnswer(agent: TestClient, operator: TestClient, label: string): Promise<void> {
  const { id } = await agent.call('question.request', { questions: [item()] });
  const waiting = agent.call('question.waitAnswer', { id });
  await operator.call('question.resolve', { id, answers: { env: [label] } });
  expect(await waiting).toEqual({ status: 'answered', answers: { env: [label] }, receipt: expect.any(String) });
}

describe.skipIf(!NGINX)("docs/deploy.md's nginx in front of three gateways", () => {
  const clusters = clusterPerTest('nginx');
  // After the clusters' hooks, so it runs first: clients and nginx go before the gateways behind them.
  afterEach(async () => {
    clients.splice(0).forEach((c) => c.close());
    if (nginx && nginx.exitCode === null) {
      const gone = new Promise((done) => nginx!.once('exit', done));
      nginx.kill('SIGQUIT');
      await gone;
    }
    nginx = undefined;
  });

  it('[D4][S3] spreads agents over the gateways, forwards the upgrade at /ws, keeps the public Host, and skips a SIGKILLed gateway', LONG, async () => {
    const port = await freePort();
    const config = { ...testConfig, allowedHosts: [`${PUBLIC}:${port}`], allowedOrigins: [`http://${PUBLIC}:${port}`] };
    const cluster = await clusters.start(3, { config });
    const upstreams = cluster.gateways.map((g) => Number(new URL(g.url).port));
    mkdirSync(join(cluster.dir, 'nginx'));
    const confPath = join(cluster.dir, 'nginx.conf');
    writeFileSync(confPath, docConfig(port, upstreams, cluster.dir));
    const check = spawnSync(NGINX!, ['-t', '-e', 'stderr', '-c', confPath], { encoding: 'utf8' });
    expect(check.stderr).toContain('syntax is ok');
    nginx = spawn(NGINX!, ['-e', 'stderr', '-c', confPath, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    await listening(port, Date.now() + 30_000);

    // The gateways see the public Host nginx was reached by, port included (S3), and refuse any other.
    expect(await get(port, '/healthz', `${PUBLIC}:${port}`)).toBe(200);
    expect(await get(port, '/healthz', 'evil.example')).toBe(421);
    // A Control UI page served through nginx opens its socket from the public origin (S1); another origin is refused.
    const page = await TestClient.open(`ws://127.0.0.1:${port}/ws`, { host: `${PUBLIC}:${port}`, origin: `http://${PUBLIC}:${port}` });
    clients.push(page);
    expect((await page.connect(tokenOf('admin'))).ok).toBe(true);
    const refused = TestClient.open(`ws://127.0.0.1:${port}/ws`, { host: `${PUBLIC}:${port}`, origin: 'http://evil.example' });
    await expect(refused).rejects.toThrow(/403/);

    // Round robin: three agents through nginx land on three gateways; an operator on one of them answers them all.
    const operator = await cluster.connect(2, 'questions');
    const agents = [await throughProxy(port, 'agent'), await throughProxy(port, 'agent'), await throughProxy(port, 'agent')];
    for (const [i, agent] of agents.entries()) await askAndAnswer(agent, operator, i % 2 ? 'Staging' : 'Production');

    // One gateway dies: exactly the agent nginx had sent there loses its socket (they were spread), the others go on,
    // and every new connection through nginx reaches a live gateway and is answered.
    await cluster.kill(0);
    await expect.poll(() => agents.filter((a) => a.closed).length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(agents.filter((a) => a.closed)).toHaveLength(1);
    for (const agent of agents.filter((a) => !a.closed)) await askAndAnswer(agent, operator, 'Production');
    const after = [await throughProxy(port, 'agent'), await throughProxy(port, 'agent'), await throughProxy(port, 'agent')];
    for (const agent of after) await askAndAnswer(agent, operator, 'Staging');
  });
});
