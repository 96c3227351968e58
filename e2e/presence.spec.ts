/**
 * PRODUCT U18 in a real Chromium against a gateway of its own (no demo agent): the session header and the sessions
 * list say whether the agent is connected, working or absent since when; a message sent while it is absent says so;
 * an admin gets "Connect an agent" with the token on request and ready snippets.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, TestInfo } from '@playwright/test';
import { connect } from '../src/agent/sdk.ts';
import { startGateway } from '../src/gateway/gateway.ts';
import { silentLogger } from '../src/gateway/infra/logger.ts';
import { seriousAxeViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { newSession } from './sessions.ts';

const UI_DIR = fileURLToPath(new URL('../dist', import.meta.url));
const VIEWS = [
  ['light', 1280, 800],
  ['dark', 1280, 800],
  ['light', 390, 844],
  ['dark', 390, 844],
] as const;

/** Looks at the page four ways (both themes, 1280 and 390 px), axe clean in each; the shots are kept with the test. */
async function shootViews(page: Page, testInfo: TestInfo, name: string) {
  for (const [colorScheme, width, height] of VIEWS) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.setViewportSize({ width, height });
    const path = testInfo.outputPath(`${name}-${colorScheme}-${width}.png`);
    await page.screenshot({ path, fullPage: true });
    await testInfo.attach(`${name}-${colorScheme}-${width}`, { path, contentType: 'image/png' });
    expect(await seriousAxeViolations(page), `${name} ${colorScheme} ${width}`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function ownGateway() {
  const dataDir = mkdtempSync(join(tmpdir(), 'askdock-e2e-presence-'));
  const gateway = await startGateway({ host: '127.0.0.1', port: 0, dbPath: join(dataDir, 'askdock.db'), uiDir: UI_DIR, log: silentLogger() });
  const token = (role: 'operator' | 'agent') => gateway.identities.identities.find((i) => i.role === role)!.token!;
  return {
    gateway,
    operatorToken: token('operator'),
    agentToken: token('agent'),
    close: async () => {
      await gateway.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

test.describe('[U18] agents\' presence', () => {
  test('the header and the sessions list say absent, connected, working; a message to an absent agent says so under it', async ({ page }, testInfo) => {
    const own = await ownGateway();
    try {
      await page.goto(`${own.gateway.url}/?token=${encodeURIComponent(own.operatorToken)}`);
      await newSession(page);
      const header = page.locator('.session-title-row');
      const link = page.getByRole('navigation', { name: 'Sessions' }).locator('a[aria-current="page"]');
      await expect(header).toContainText('No agent connected');
      await expect(link).toHaveAccessibleDescription('No agent connected');

      await page.getByRole('textbox', { name: 'Message' }).fill('are you there?');
      await page.keyboard.press('Enter');
      const log = page.getByRole('log', { name: 'Conversation' });
      await expect(log.getByText('are you there?')).toBeVisible();
      await expect(log.getByText('No agent is connected; it will get this when it connects')).toBeVisible();
      await page.getByRole('textbox', { name: 'Message' }).blur();
      await shootViews(page, testInfo, 'presence-absent');

      const agent = await connect({ url: own.gateway.wsUrl, token: own.agentToken, name: 'e2e agent' });
      try {
        await expect(header).toContainText('Agent connected');
        await expect(link).toHaveAccessibleDescription('Agent connected');
        await expect(log.getByText('No agent is connected; it will get this when it connects')).toHaveCount(0);
        const sessionKey = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
        const runId = await agent.startRun(sessionKey);
        await expect(header).toContainText('Agent working');
        await shootViews(page, testInfo, 'presence-working');
        await agent.endRun(runId, 'end_turn');
        await expect(header).toContainText('Agent connected');
      } finally {
        agent.close();
      }
      await expect(header).toContainText(/Agent absent since \d/);
      await expect(link).toHaveAccessibleDescription(/^Agent absent since \d/);
    } finally {
      await own.close();
    }
  });

  test('"Connect an agent": an admin without the demo agent gets the token on request and snippets with this address', async ({ page, context }, testInfo) => {
    const own = await ownGateway();
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: own.gateway.url });
      await page.goto(`${own.gateway.url}/?token=${encodeURIComponent(own.operatorToken)}`);
      await expect(page.getByRole('heading', { name: 'Connect an agent', level: 1 })).toBeVisible();
      // The top bar's button of the same name steps aside while the page shows the panel: the words name one thing.
      await expect(page.getByText('Connect an agent')).toHaveCount(1);
      await expect(page.getByRole('banner').getByRole('button', { name: 'Connect an agent' })).toHaveCount(0);
      const wsUrl = own.gateway.url.replace(/^http/, 'ws');
      // Hidden until asked for; the snippets carry the address, and the token only once it is shown.
      await expect(page.getByText(own.agentToken)).toHaveCount(0);
      for (const name of ['Claude Code', 'Codex', '.mcp.json', 'Hook', 'askdock ask']) {
        const snippet = page.getByRole('region', { name, exact: true });
        await expect(snippet).toContainText(wsUrl);
      }
      await expect(page.getByRole('region', { name: 'Hook' })).toContainText('askdock hook');
      await shootViews(page, testInfo, 'connect-agent');
      await page.getByRole('button', { name: 'Show token' }).click();
      await expect(page.getByLabel('Agent token')).toHaveText(own.agentToken);
      await expect(page.getByRole('region', { name: 'Claude Code' })).toContainText(`ASKDOCK_TOKEN=${own.agentToken}`);
      await page.getByRole('button', { name: 'Copy token' }).click();
      await expect(page.getByText('Copied')).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(own.agentToken);
    } finally {
      await own.close();
    }
  });

  test('"Connect an agent" where the clipboard API is missing: Copy selects the token for Ctrl+C', async ({ page }) => {
    const own = await ownGateway();
    try {
      await page.addInitScript(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
      await page.goto(`${own.gateway.url}/?token=${encodeURIComponent(own.operatorToken)}`);
      await page.getByRole('button', { name: 'Copy token' }).click();
      await expect(page.getByText('Selected: press Ctrl+C to copy')).toBeVisible();
      await expect(page.getByLabel('Agent token')).toHaveText(own.agentToken);
      expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(own.agentToken);
    } finally {
      await own.close();
    }
  });

  test('[A5] an operator without operator.admin never gets the agent token: the demo steps show instead', async ({ page, gateway }) => {
    // The shared gateway runs the demo agent: the admin there sees no "Connect an agent" either.
    await page.goto(`${gateway.url}/?token=${encodeURIComponent(gateway.operatorToken)}`);
    await expect(page.getByRole('heading', { name: 'Connect an agent' })).toHaveCount(0);
  });
});
