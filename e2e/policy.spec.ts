import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { startGateway } from '../src/gateway/gateway.ts';
import { silentLogger } from '../src/gateway/infra/logger.ts';
import type { GatewayClient } from '../src/client/client.ts';
import { createNodeClient } from '../src/client/node.ts';
import { seriousAxeViolations } from './axe.ts';
import { expect, test, type GatewayFixture } from './fixtures.ts';
import { newSession } from './sessions.ts';

const dockOf = (page: Page) => page.getByRole('region', { name: 'Questions' });
const sessionKeyOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
const SESSION_OFFER = 'Always allow in this session';

/** An agent connection of its own, asking for approvals in the page's session as an SDK client would. */
async function asker(gateway: GatewayFixture): Promise<GatewayClient> {
  const client = createNodeClient({ url: gateway.url, token: gateway.agentToken, client: { name: 'e2e policy sdk', mode: 'agent' } });
  await client.start();
  return client;
}

test.describe('[G5][G6][G7][G12] approvals, grants and the Rules page', () => {
  test('[G7][G12][G6][G5] "Always allow in this session" makes a grant: the same request is allowed with a notice, the Rules page lists it, Revoke ends it and it asks again', async ({ page, openApp, gateway }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.addInitScript(() => Object.defineProperty(Notification, 'permission', { get: () => 'denied' }));
    const agent = await asker(gateway);
    // A command no rule of the (empty) policy matches: unmatched asks.
    const command = `npm run test -- --grep policy-${Date.now()}`;
    try {
      await openApp(page);
      await newSession(page);
      const sessionKey = sessionKeyOf(page);
      const request = () => agent.request('question.request', { sessionKey, approval: { tool: 'Bash', input: { command }, cwd: '/work/app' } });

      // 1. Asked: Allow, Deny and the offers, each with its rule under it.
      const first = await request();
      expect(first).not.toHaveProperty('status', 'answered');
      const dock = dockOf(page);
      await expect(dock.getByRole('radio', { name: 'Allow', exact: true })).toBeVisible();
      await expect(dock.getByRole('radio', { name: 'Deny', exact: true })).toBeVisible();
      const offer = dock.getByRole('radio', { name: SESSION_OFFER });
      await expect(offer).toHaveAccessibleDescription(/Bash\(npm run test/);
      await expect(dock.getByRole('radio', { name: 'Always allow in this project for 7 days' })).toBeVisible();
      await expect(dock.getByRole('radio', { name: 'Always allow for this agent for 7 days' })).toBeVisible();

      // The person picks the session offer by its number key and sends.
      await dock.getByRole('radio', { name: 'Allow', exact: true }).focus();
      await page.keyboard.press('3');
      await expect(offer).toBeChecked();
      await page.keyboard.press('Control+Enter');
      await expect(dock).toHaveCount(0);
      const answered = await agent.request('question.waitAnswer', { id: first.id, timeoutMs: 10_000 });
      expect(answered.decision).toMatchObject({ behavior: 'allow', decidedBy: 'person' });
      const grantId = answered.decision?.grantId;
      expect(grantId).toBeTruthy();

      // 2. The same request again: allowed by the grant, no question, and the notice in the transcript.
      const second = await request();
      expect(second).toMatchObject({ status: 'answered', decision: { behavior: 'allow', decidedBy: 'grant', grantId } });
      const log = page.getByRole('log', { name: 'Conversation' });
      await expect(log.getByRole('article', { name: `✓ Allowed Bash(${command}) · grant ${grantId}` })).toBeVisible();
      await expect(dock).toHaveCount(0);

      // 3. The Rules page lists the grant; one click on Revoke removes it.
      await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: 'Rules' }).click();
      await expect(page).toHaveURL(/\/rules$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Rules' })).toBeVisible();
      const grants = page.getByRole('table', { name: 'Grants' });
      const row = grants.getByRole('row').filter({ hasText: 'Bash(npm run test' });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText('This session');
      await expect(row.getByRole('link', { name: `Question ${first.id}` })).toHaveAttribute('href', `/q/${first.id}`);
      await expect(page.getByText('When no rule matches:')).toContainText('Ask');
      expect(await seriousAxeViolations(page)).toEqual([]);

      const revoke = row.getByRole('button', { name: 'Revoke', exact: true });
      await expect(revoke).toHaveAccessibleDescription(/^Bash\(npm run test/);
      await revoke.click();
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await expect(row).toHaveCount(0);
      await expect(page.getByText('No grants in force.')).toBeVisible();

      // 4. Revoked: the same request asks again.
      await page.goBack();
      const third = await request();
      expect(third).not.toHaveProperty('status', 'answered');
      await expect(dockOf(page).getByRole('radio', { name: SESSION_OFFER })).toBeVisible();
      await agent.request('question.resolve', { id: third.id, cancel: true });
    } finally {
      agent.close();
    }
  });

  test('[G10][G12][A5] the rules by layer for an admin; a policy file that stops loading tells admins on every page and keeps the rules; a non-admin sees none of it', async ({ page, browser }) => {
    // A gateway of its own: its config names a policy file this test breaks.
    const dir = mkdtempSync(join(tmpdir(), 'askdock-e2e-policy-'));
    const admin = `adk_${'a'.repeat(40)}`;
    const reader = `adk_${'b'.repeat(40)}`;
    writeFileSync(join(dir, 'policy.json'), JSON.stringify({ rules: [{ id: 'no-rm', rule: 'Bash(rm -rf *)', decision: 'deny', reason: 'never delete trees' }] }));
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        identities: [
          { id: 'ana', token: admin, role: 'operator', scopes: ['operator.admin'] },
          { id: 'bo', token: reader, role: 'operator', scopes: ['operator.questions'] },
          { id: 'agent', token: `adk_${'c'.repeat(40)}`, role: 'agent', scopes: ['agent.run'] },
        ],
        approvals: { file: 'policy.json', rules: [{ id: 'npm-tests', rule: 'Bash(npm run test *)', decision: 'allow', reason: 'tests only read' }] },
      }),
    );
    const uiDir = fileURLToPath(new URL('../dist', import.meta.url));
    const gateway = await startGateway({ host: '127.0.0.1', port: 0, dbPath: join(dir, 'askdock.db'), configPath: join(dir, 'config.json'), uiDir, log: silentLogger() });
    const other = await browser.newPage();
    try {
      await page.goto(`${gateway.url}/rules?token=${admin}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Rules' })).toBeVisible();
      const config = page.getByRole('table', { name: 'Config approvals.rules' });
      await expect(config.getByRole('row', { name: /Bash\(npm run test \*\)/ })).toContainText('Allow');
      const file = page.getByRole('table', { name: 'Policy file approvals.file' });
      await expect(file.getByRole('row', { name: /Bash\(rm -rf \*\)/ })).toContainText('Denynever delete trees');
      await expect(page.getByRole('alert')).toHaveCount(0);

      // The file breaks (the gateway watches it): the reload fails, the previous rules stay, and the admin is told on the page and everywhere else.
      writeFileSync(join(dir, 'policy.json'), JSON.stringify({ rules: [{ id: 'no-rm', rule: 'Bash(rm -rf *)', decision: 'refuse' }] }));
      const alert = page.getByRole('alert');
      // A file watch, not a clock: a bound generous enough for a loaded machine.
      await expect(alert).toContainText('Approval policy not reloaded:', { timeout: 30_000 });
      await expect(alert).toContainText('rules[0].decision');
      await expect(alert).toContainText('the previous policy is in force.');
      await expect(file.getByRole('row', { name: /Bash\(rm -rf \*\)/ })).toBeVisible();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: 'Inbox' }).click();
      await expect(page.getByRole('alert')).toContainText('Approval policy not reloaded:');
      await page.getByRole('alert').getByRole('link', { name: 'See the rules' }).click();
      await expect(page).toHaveURL(/\/rules$/);

      // A5: without operator.admin there is no Rules entry and no alert, and the page itself says it is for admins.
      await other.goto(`${gateway.url}/inbox?token=${reader}`);
      const nav = other.getByRole('navigation', { name: 'Sessions' });
      await expect(nav.getByRole('link', { name: /^Inbox/ })).toBeVisible();
      await expect(nav.getByRole('link', { name: 'Rules' })).toHaveCount(0);
      await expect(other.getByRole('alert')).toHaveCount(0);
      await other.goto(`${gateway.url}/rules`);
      await expect(other.getByText('Only an admin sees the approval policy and its grants.')).toBeVisible();
    } finally {
      await other.close();
      await gateway.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
