import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnGateway, type GatewayChild } from '../../testing/gateway-child.ts';
import { until } from './testing/fake-http.ts';
import { FakeTelegram } from './testing/fake-telegram.ts';

const dir = mkdtempSync(join(tmpdir(), 'askdock-channels-cli-'));
const children: GatewayChild[] = [];
afterAll(() => {
  for (const c of children) c.proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('askdock gateway with channels', () => {
  it('[H1] prints `askdock channel telegram ready` on stdout once connected, and SIGTERM still exits cleanly', async () => {
    const fake = await FakeTelegram.start();
    try {
      const config = join(dir, 'config.json');
      writeFileSync(
        config,
        JSON.stringify({
          identities: [
            { id: 'alice', token: 'alice-token-0123456789abcd', role: 'operator', scopes: ['operator.admin'] },
            { id: 'agent', token: 'agent-token-0123456789abcd', role: 'agent', scopes: ['agent.run'] },
          ],
          channels: { telegram: { botToken: fake.token, users: { '5551234': 'alice' }, apiRoot: fake.apiRoot } },
        }),
      );
      const child = await spawnGateway(['--port', '0', '--db', join(dir, 'askdock.db'), '--config', config], 60_000);
      children.push(child);
      await until(() => child.stdout.includes('askdock channel telegram ready'), 'the ready line', 60_000);
      expect(child.stdout.filter((l) => l === 'askdock channel telegram ready')).toHaveLength(1);
      child.proc.kill('SIGTERM');
      expect((await child.exit).code).toBe(0);
    } finally {
      await fake.close();
    }
  }, 120_000);
});
