import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnGateway } from '../../testing/gateway-child.ts';
import { clusterPerTest } from '../../testing/gateway-cluster.ts';
import { testConfig, tokenOf } from '../../testing/gateway-harness.ts';
import { TestClient } from '../../testing/ws-client.ts';
import type { GatewayConfig } from '../config.ts';

const clusters = clusterPerTest('secrets');

// The agent may read secrets (agent.secrets).
const config: GatewayConfig = {
  identities: testConfig.identities.map((i) => (i.id === 'agent' ? { ...i, scopes: ['agent.run', 'agent.secrets'] } : i)),
};
const VALUE = 'sk-live-SHAREDvalue4Kq81NzXw3Lp7Rt2Yh5';
const LONG = { timeout: 120_000 };

describe('K1 secrets on several gateways of one PostgreSQL database', () => {
  it('[K1][D2] a secret stored through one gateway is read through another', LONG, async () => {
    const c = await clusters.start(2, { config });
    const agentA = await c.connect(0, 'agent');
    const adminA = await c.connect(0, 'admin');
    const { id } = await agentA.call('secret.request', { name: 'DEPLOY_TOKEN', description: 'To deploy' });
    expect(await adminA.call('secret.provide', { id, value: VALUE })).toEqual({ status: 'stored', name: 'DEPLOY_TOKEN' });

    const agentB = await c.connect(1, 'agent');
    expect(await agentB.call('secret.get', { name: 'DEPLOY_TOKEN' })).toEqual({ value: VALUE });
    // A gateway started later, after both others restarted, still reads it: the key is the shared file, not the process.
    await c.kill(0);
    const again = await spawnGateway(['--port', '0', '--db', clusters.schema.url, '--config', c.configPath], 60_000);
    const agentC = await TestClient.open(again.wsUrl);
    try {
      expect((await agentC.connect(tokenOf('agent'))).ok).toBe(true);
      expect(await agentC.call('secret.get', { name: 'DEPLOY_TOKEN' })).toEqual({ value: VALUE });
    } finally {
      agentC.close();
      again.proc.kill('SIGTERM');
      await again.exit;
    }
  });

  it('[K1] a gateway given another secrets key than the database was sealed with refuses to start, naming the file', LONG, async () => {
    const c = await clusters.start(1, { config });
    const other = join(c.dir, 'other.key');
    const started = spawnGateway(['--port', '0', '--db', clusters.schema.url, '--config', c.configPath, '--secrets-key', other], 60_000);
    const err = await started.then(
      async (g) => {
        g.proc.kill('SIGKILL');
        await g.exit;
        return null;
      },
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/exited \(2\)/);
    expect(err?.message).toContain(`the secrets key ${other} is not the key this database's secrets are sealed with`);
  });
});
