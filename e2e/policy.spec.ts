import type { Page } from '@playwright/test';
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

      // 3. The Rules page lists the grant; Revoke (confirmed) removes it.
      await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: 'Rules' }).click();
      await expect(page).toHaveURL(/\/rules$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Rules' })).toBeVisible();
      const grants = page.getByRole('table', { name: 'Grants' });
      const row = grants.getByRole('row').filter({ has: page.getByRole('button', { name: /^Revoke grant Bash\(npm run test/ }) });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText('This session');
      await expect(row.getByRole('link', { name: `Question ${first.id}` })).toHaveAttribute('href', `/q/${first.id}`);
      await expect(page.getByText('When no rule matches:')).toContainText('Ask');
      expect(await seriousAxeViolations(page)).toEqual([]);

      await row.getByRole('button', { name: /^Revoke grant/ }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Revoke this grant?' });
      await confirm.getByRole('button', { name: 'Revoke grant' }).click();
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
});
