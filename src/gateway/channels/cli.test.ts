import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnGateway, type GatewayChild } from '../../testing/gateway-child.ts';
import { until } from '../../testing/channels/fake-http.ts';
import { FakeTelegram } from '../../testing/channels/fake-telegram.ts';

const dir = mkdtempSync(join(tmpdir(), 'askdock-channels-cli-'));
const children: GatewayChild[] = [];
afterAll(() => {
  for (const c of children) c.proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A config file with Alice, an agent and a Telegram channel on `apiRoot`. */
function telegramConfig(name: string, botToken: string, apiRoot: string): string {
  const config = join(dir, name);
  const identities = [
    { id: 'alice', token: 'alice-token-0123456789abcd', role: 'operator', scopes: ['operator.admin'] },
    { id: 'agent', token: 'agent-token-0123456789abcd', role: 'agent', scopes: ['agent.run'] },
  ];
  writeFileSync(config, JSON.stringify({ identities, channels: { telegram: { botToken, users: { '5551234': 'alice' }, apiRoot } } }));
  return config;
}

describe('askdock gateway with channels', () => {
  it('[H1] prints `askdock channel telegram ready` on stdout once connected, and SIGTERM still exits cleanly', async () => {
    const fake = await FakeTelegram.start();
    try {
      const config = telegramConfig('config.json', fake.token, fake.apiRoot);
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

  it('[H1][H7] with an apiRoot that never answers, SIGTERM still ends the gateway: no long poll or retry holds it', async () => {
    // Accepts connections and reads them, never answers.
    let calls = 0;
    const silent = createServer(() => void calls++);
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
    try {
      const config = telegramConfig('silent.json', '1:silent', `http://127.0.0.1:${(silent.address() as { port: number }).port}`);
      const child = await spawnGateway(['--port', '0', '--db', join(dir, 'silent.db'), '--config', config], 60_000);
      children.push(child);
      // The gateway is asking the silent API for getMe (which would wait minutes) when it is told to stop.
      await until(() => calls > 0, 'a call to the silent apiRoot', 60_000);
      child.proc.kill('SIGTERM');
      expect((await child.exit).code).toBe(0);
      expect(child.stdout).not.toContain('askdock channel telegram ready');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }, 120_000);
});
