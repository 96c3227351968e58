// The gateway under `npm run fuzz`, in a process of its own so its RSS is its own. Prints one JSON line once listening.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from '../gateway/gateway.ts';
import { randomToken } from '../gateway/auth.ts';
import type { GatewayConfig } from '../gateway/config.ts';
import { silentLogger } from '../gateway/infra/logger.ts';
import { boundHeapGrowth } from '../gateway/infra/heap-growth.ts';

const config: GatewayConfig = {
  identities: [
    { id: 'admin', token: randomToken(), role: 'operator', scopes: ['operator.admin'] },
    { id: 'guest', token: randomToken(), role: 'operator', scopes: ['operator.sessions.write'] },
    { id: 'agent', token: randomToken(), role: 'agent', scopes: ['agent.run'] },
  ],
};

// As `askdock gateway` does before it listens.
boundHeapGrowth();
const dir = mkdtempSync(join(tmpdir(), 'askdock-fuzz-'));
const gw = await startGateway({
  port: 0,
  dbPath: join(dir, 'askdock.db'),
  config,
  uiDir: join(dir, 'no-ui'),
  log: silentLogger(),
  // Limits that let the frames reach the parsers and handlers rather than stop at the door.
  rateLimit: { burst: 1_000_000, perSecond: 1_000_000 },
  loginLimit: { maxFailures: 1_000_000_000, windowMs: 60_000 },
  maxPendingQuestions: 1_000_000,
});
process.stdout.write(JSON.stringify({ url: gw.url, wsUrl: gw.wsUrl, dir, tokens: config.identities.map((i) => i.token) }) + '\n');
process.on('SIGTERM', () => void gw.close().then(() => process.exit(0)));
