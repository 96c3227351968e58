import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGateway } from '../src/gateway/gateway.ts';
import { silentLogger } from '../src/gateway/infra/logger.ts';
import { createNodeClient } from '../src/client/node.ts';

/**
 * A gateway of its own (a folder it owns, with `config` as its config.json, serving the built UI) and an agent signed
 * in with `agentToken`; `close` stops both and removes the folder.
 */
export async function ownGateway(config: object, agentToken: string, name: string) {
  const dir = mkdtempSync(join(tmpdir(), `askdock-e2e-${name}-`));
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  const uiDir = fileURLToPath(new URL('../dist', import.meta.url));
  const gateway = await startGateway({ host: '127.0.0.1', port: 0, dbPath: join(dir, 'askdock.db'), configPath: join(dir, 'config.json'), uiDir, log: silentLogger() });
  const agent = createNodeClient({ url: gateway.wsUrl, token: agentToken, client: { name: `e2e ${name} sdk`, mode: 'agent' } });
  await agent.start();
  return {
    gateway,
    agent,
    close: async () => {
      agent.close();
      await gateway.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
