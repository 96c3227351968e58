import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { GatewayConfig } from '../gateway/config.ts';
import { testConfig, tokenOf, type Who } from './gateway-harness.ts';
import { spawnGateway, type GatewayChild } from './gateway-child.ts';
import { freshSchema, type TestSchema } from './postgres.ts';
import { TestClient } from './ws-client.ts';

/** Several `askdock gateway` processes on one PostgreSQL database (D2), each its own process as in production. */
export type Cluster = {
  gateways: GatewayChild[];
  connect(index: number, who: Who, extra?: Parameters<TestClient['connect']>[1]): Promise<TestClient>;
  /** SIGKILLs gateway `index` and waits for it to be gone. */
  kill(index: number): Promise<void>;
  close(): Promise<void>;
};

export type StartedCluster = Cluster & { dir: string; configPath: string };

/** `config`: the one config file every gateway gets (its directory also holds the shared secrets key, K1). */
export async function startCluster(count: number, dbUrl: string, opts: { config?: GatewayConfig } = {}): Promise<StartedCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-cluster-'));
  const configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify(opts.config ?? testConfig));
  const gateways: GatewayChild[] = [];
  const clients: TestClient[] = [];
  // One after the other: the first to start takes the duties (D3), which tests rely on.
  for (let i = 0; i < count; i++) gateways.push(await spawnGateway(['--port', '0', '--db', dbUrl, '--config', configPath], 60_000));
  const kill = async (index: number) => {
    const g = gateways[index];
    if (g.proc.exitCode === null && g.proc.signalCode === null) g.proc.kill('SIGKILL');
    await g.exit;
  };
  return {
    dir,
    configPath,
    gateways,
    async connect(index, who, extra) {
      const c = await TestClient.open(gateways[index].wsUrl);
      clients.push(c);
      const res = await c.connect(tokenOf(who), extra);
      if (!res.ok) throw new Error(`connect as ${who} to gateway ${index} failed: ${JSON.stringify(res.error)}`);
      return c;
    },
    kill,
    async close() {
      for (const c of clients) c.close();
      for (let i = 0; i < gateways.length; i++) {
        const g = gateways[i];
        if (g.proc.exitCode === null && g.proc.signalCode === null) g.proc.kill('SIGTERM');
      }
      const stubborn = setTimeout(() => gateways.forEach((g) => g.proc.kill('SIGKILL')), 10_000);
      await Promise.all(gateways.map((g) => g.exit));
      clearTimeout(stubborn);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type ClusterPerTest = {
  /** The current test's schema (a gateway started apart from the cluster uses its URL). */
  readonly schema: TestSchema;
  /** Starts `count` gateways on the current test's schema; they are closed after the test. */
  start(count: number, opts?: { config?: GatewayConfig }): Promise<StartedCluster>;
};

/**
 * For the tests of the calling file: each gets a fresh PostgreSQL schema, and afterwards the clusters it started are closed
 * and the schema dropped. Hooks the file adds later run before this cleanup (vitest runs after-hooks as a stack).
 */
export function clusterPerTest(prefix: string): ClusterPerTest {
  let schema: TestSchema | undefined;
  const clusters: StartedCluster[] = [];
  beforeEach(async () => {
    schema = await freshSchema(prefix);
  });
  afterEach(async () => {
    for (const c of clusters.splice(0)) await c.close();
    await schema?.drop();
    schema = undefined;
  });
  const current = () => {
    if (!schema) throw new Error('clusterPerTest: no schema outside a test');
    return schema;
  };
  return {
    get schema() {
      return current();
    },
    async start(count, opts) {
      const cluster = await startCluster(count, current().url, opts);
      clusters.push(cluster);
      return cluster;
    },
  };
}
