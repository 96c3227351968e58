import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';
import { startGateway } from '../src/gateway/gateway.ts';
import { connect } from '../src/agent/sdk.ts';
import { startDemoAgent } from '../src/agent/demo-agent.ts';
import { silentLogger } from '../src/gateway/infra/logger.ts';

export type GatewayFixture = {
  /** `http://127.0.0.1:<port>`: the built Control UI and `/ws` on one origin. */
  url: string;
  operatorToken: string;
  agentToken: string;
};

type TestFixtures = {
  /** Opens the built Control UI at `path`, signed in with the operator token through `?token=`. */
  openApp: (page: Page, path?: string) => Promise<void>;
};

const UI_DIR = fileURLToPath(new URL('../dist', import.meta.url));
const quiet = process.env.ASKDOCK_E2E_LOG ? undefined : () => {};

type WorkerFixtures = {
  /** Host names the gateway answers to besides loopback (S3), e.g. a name mapped to 127.0.0.1 for a plain-http origin. */
  gatewayHosts: string[];
  gateway: GatewayFixture;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  gatewayHosts: [[], { scope: 'worker', option: true }],
  gateway: [
    async ({ gatewayHosts }, use) => {
      if (!existsSync(join(UI_DIR, 'index.html'))) throw new Error(`no built UI in ${UI_DIR}: run \`npx vite build\` before the e2e tests`);
      // Outside test-results/, which Playwright empties while tests still hold the database open.
      const dataDir = mkdtempSync(join(tmpdir(), 'askdock-e2e-'));
      const gateway = await startGateway({ host: '127.0.0.1', port: 0, dbPath: join(dataDir, 'askdock.db'), uiDir: UI_DIR, allowedHosts: gatewayHosts, log: process.env.ASKDOCK_E2E_LOG ? undefined : silentLogger() });
      const operatorToken = gateway.identities.identities.find((i) => i.role === 'operator')?.token;
      const agentToken = gateway.identities.identities.find((i) => i.role === 'agent')?.token;
      if (!operatorToken || !agentToken) throw new Error('the gateway created no operator and agent identities (A1)');
      const agent = await connect({ url: gateway.wsUrl, token: agentToken, name: 'askdock-demo-agent' });
      const demo = await startDemoAgent({ agent, log: quiet });
      try {
        await use({ url: gateway.url, operatorToken, agentToken });
      } finally {
        await demo.close();
        agent.close();
        await gateway.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker' },
  ],

  openApp: async ({ gateway }, use) => {
    await use(async (page, path = '/') => {
      await page.goto(`${gateway.url}${path}?token=${encodeURIComponent(gateway.operatorToken)}`);
    });
  },
});

export { expect };
