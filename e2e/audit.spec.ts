import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { startGateway, type GatewayOptions } from '../src/gateway/gateway.ts';
import { silentLogger } from '../src/gateway/infra/logger.ts';
import type { GatewayClient } from '../src/client/client.ts';
import { createNodeClient } from '../src/client/node.ts';
import { seriousAxeViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { newSession } from './sessions.ts';

const UI_DIR = fileURLToPath(new URL('../dist', import.meta.url));
/** Where the shots of the receipt and the admin's notice are kept for people to look at (not reference shots). */
const SHOTS = fileURLToPath(new URL('../../shots-auditui', import.meta.url));

const ADMIN = `adk_${'a'.repeat(40)}`;
const READER = `adk_${'b'.repeat(40)}`;
const AGENT = `adk_${'c'.repeat(40)}`;

/** Saves a shot of the page in each theme at each width, and checks axe in each. */
async function shootEveryView(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }])
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await page.setViewportSize(size);
      await page.screenshot({ path: join(SHOTS, `${name}-${colorScheme}-${size.width}.png`) });
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
}

async function client(url: string, token: string, mode: 'agent' | 'cli'): Promise<GatewayClient> {
  const c = createNodeClient({ url, token, client: { name: `e2e audit ${mode}`, mode } });
  await c.start();
  return c;
}

/** A gateway of its own (a folder it owns, an admin, a reader without operator.admin and an agent). */
async function ownGateway(dir: string, extra: Partial<GatewayOptions> = {}) {
  const identities = [
    { id: 'ana', token: ADMIN, role: 'operator', scopes: ['operator.admin'] },
    { id: 'bo', token: READER, role: 'operator', scopes: ['operator.questions'] },
    { id: 'agent', token: AGENT, role: 'agent', scopes: ['agent.run'] },
  ];
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ identities }));
  return startGateway({ host: '127.0.0.1', port: 0, dbPath: join(dir, 'askdock.db'), configPath: join(dir, 'config.json'), uiDir: UI_DIR, log: silentLogger(), ...extra });
}

/** The methods a page asks the gateway for, from the frames its sockets send. */
function methodsAsked(page: Page): string[] {
  const asked: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      const method = typeof payload === 'string' ? /"method":"([^"]+)"/.exec(payload)?.[1] : undefined;
      if (method) asked.push(method);
    }),
  );
  return asked;
}

/** An approval the admin allows through the gateway: two entries of the audit log (asked, answered). */
async function allowedApproval(url: string, command: string) {
  const agent = await client(url, AGENT, 'agent');
  const admin = await client(url, ADMIN, 'cli');
  try {
    const asked = await agent.request('question.request', { approval: { tool: 'Bash', input: { command } } });
    await admin.request('question.resolve', { id: asked.id, answers: { approval: ['Allow'] } });
    return await agent.request('question.waitAnswer', { id: asked.id, timeoutMs: 10_000 });
  } finally {
    agent.close();
    admin.close();
  }
}

test.describe('[L4][L7][L8] the audit log in the Control UI', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('[L4][U12] a decided question in the transcript shows its receipt: reached by keyboard, the JWS the agent got, Copy says Copied', async ({ page, openApp, gateway }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.addInitScript(() => Object.defineProperty(Notification, 'permission', { get: () => 'denied' }));
    const agent = await client(gateway.url, gateway.agentToken, 'agent');
    try {
      await openApp(page);
      await newSession(page);
      const sessionKey = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
      const asked = await agent.request('question.request', { sessionKey, approval: { tool: 'Bash', input: { command: `git push origin release-${Date.now()}` } } });
      const dock = page.getByRole('region', { name: 'Questions' });
      await dock.getByRole('radio', { name: 'Allow', exact: true }).click();
      await page.keyboard.press('Control+Enter');
      const waited = await agent.request('question.waitAnswer', { id: asked.id, timeoutMs: 10_000 });
      expect(waited.receipt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

      // The summary's actions, in order by Tab: its own page, then its receipt.
      const summary = page.getByRole('log', { name: 'Conversation' }).getByRole('group', { name: /^Question / });
      const receipt = summary.getByRole('button', { name: 'Receipt' });
      await expect(receipt).toBeVisible();
      await summary.getByRole('link', { name: 'Open in its own page' }).focus();
      await page.keyboard.press('Tab');
      await expect(receipt).toBeFocused();
      await page.keyboard.press('Enter');

      const popover = page.getByRole('dialog', { name: 'Receipt' });
      await expect(popover).toContainText('Allowed by');
      await expect(popover.getByRole('textbox', { name: 'Receipt (compact JWS)' })).toHaveValue(waited.receipt!);
      const copy = popover.getByRole('button', { name: 'Copy', exact: true });
      await expect(copy).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(popover.getByRole('status')).toHaveText('Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(waited.receipt);
      await shootEveryView(page, 'receipt');

      await page.keyboard.press('Escape');
      await expect(popover).toHaveCount(0);
      await expect(receipt).toBeFocused();
    } finally {
      agent.close();
    }
  });

  test('[L7][A5] an audit row edited in the database: after restart the admin is told what and how to acknowledge, a reader is not (and is refused); acknowledging clears it', async ({ page, browser }) => {
    const dir = mkdtempSync(join(tmpdir(), 'askdock-e2e-audit-'));
    let gateway = await ownGateway(dir);
    const other = await browser.newPage();
    try {
      await allowedApproval(gateway.url, 'git push origin main');
      const signer = await client(gateway.url, ADMIN, 'cli');
      expect((await signer.request('audit.checkpoint', { sign: true })).treeSize).toBe(2);
      signer.close();
      await gateway.close();
      const raw = new Database(join(dir, 'askdock.db'));
      raw.prepare(`UPDATE audit_entries SET line = replace(line, '"agent"', '"someone"') WHERE idx = 0`).run();
      raw.close();
      gateway = await ownGateway(dir);

      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto(`${gateway.url}/inbox?token=${ADMIN}`);
      const alert = page.getByRole('alert').filter({ hasText: 'Audit log' });
      await expect(alert).toContainText('Audit log does not match its signed checkpoints: the stored entries no longer match the checkpoint of size 2');
      await expect(alert).toContainText('askdock audit acknowledge');
      await shootEveryView(page, 'audit-integrity');

      // A5: a reader is never told (the page does not even ask), and the gateway does not answer the state to them.
      const readerAsked = methodsAsked(other);
      await other.goto(`${gateway.url}/inbox?token=${READER}`);
      await expect(other.getByRole('log', { name: 'Conversation' }).getByRole('group', { name: /^Question / })).toHaveCount(1);
      await expect(other.getByText('Audit log')).toHaveCount(0);
      expect(readerAsked).toContain('connect');
      expect(readerAsked).not.toContain('audit.checkpoint');
      const reader = await client(gateway.url, READER, 'cli');
      // L9: the checkpoint is anyone's to read, the failed self-check is not in it.
      expect(await reader.request('audit.checkpoint', {})).not.toHaveProperty('integrity');
      await expect(reader.request('audit.acknowledge', {})).rejects.toMatchObject({ code: 'FORBIDDEN' });
      reader.close();

      // What `askdock audit acknowledge` does: the alert leaves the open page by itself.
      const admin = await client(gateway.url, ADMIN, 'cli');
      expect(await admin.request('audit.acknowledge', { note: 'row 0 restored from a backup' })).toMatchObject({ acknowledged: true });
      admin.close();
      await expect(alert).toHaveCount(0);
    } finally {
      await other.close();
      await gateway.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('[L8][A5] an unsigned gateway: the admin reads "audit: unsigned" on every page and a decided question has no receipt; a reader sees no line', async ({ page, browser }) => {
    const dir = mkdtempSync(join(tmpdir(), 'askdock-e2e-audit-'));
    const gateway = await ownGateway(dir, { auditSigning: false });
    const other = await browser.newPage();
    try {
      const waited = await allowedApproval(gateway.url, 'npm publish');
      expect(waited).not.toHaveProperty('receipt');
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto(`${gateway.url}/inbox?token=${ADMIN}`);
      const line = page.getByRole('status').filter({ hasText: 'audit: unsigned' });
      await expect(line).toContainText('decisions are logged but get no receipts');
      await expect(line).toContainText('askdock audit export needs --unsigned');
      const history = page.getByRole('log', { name: 'Conversation' });
      await expect(history.getByRole('group', { name: /^Question / })).toHaveCount(1);
      await expect(history.getByRole('button', { name: 'Receipt' })).toHaveCount(0);
      await shootEveryView(page, 'audit-unsigned');

      const readerAsked = methodsAsked(other);
      await other.goto(`${gateway.url}/inbox?token=${READER}`);
      await expect(other.getByRole('log', { name: 'Conversation' }).getByRole('group', { name: /^Question / })).toHaveCount(1);
      await expect(other.getByText('audit: unsigned')).toHaveCount(0);
      expect(readerAsked).not.toContain('audit.checkpoint');
    } finally {
      await other.close();
      await gateway.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
