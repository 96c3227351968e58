import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayConfig } from '../gateway/config.ts';
import { testConfig, tokenOf, type Who } from './gateway-harness.ts';
import { spawnGateway, type GatewayChild } from './gateway-child.ts';
import { TestClient } from './ws-client.ts';

/** Several `askdock gateway` processes on one PostgreSQL database (D2), each its own process as in production. */
export type Cluster = {
  gateways: GatewayChild[];
  connect(index: number, who: Who, extra?: Parameters<TestClient['connect']>[1]): Promise<TestClient>;
  /** SIGKILLs gateway `index` and waits for it to be gone. */
  kill(index: number): Promise<void>;
  close(): Promise<void>;
};

/** `config`: the one config file every gateway gets (its directory also holds the shared secrets key, K1). */
export async function startCluster(count: number, dbUrl: string, opts: { config?: GatewayConfig } = {}): Promise<Cluster & { dir: string; configPath: string }> {
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
