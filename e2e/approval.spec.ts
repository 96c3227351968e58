import type { Page } from '@playwright/test';
import type { GatewayClient } from '../src/client/client.ts';
import { createNodeClient } from '../src/client/node.ts';
import { seriousAxeViolations } from './axe.ts';
import { expect, test, type GatewayFixture } from './fixtures.ts';
import { newSession } from './sessions.ts';

const dockOf = (page: Page) => page.getByRole('region', { name: 'Questions' });
const detailOf = (page: Page) => dockOf(page).getByRole('group', { name: 'Detail' });

/** A 200-line unified diff, as Claude Code's Edit approval carries it (X2). */
const DIFF = [
  'src/billing/invoice.ts',
  '--- a/src/billing/invoice.ts',
  '+++ b/src/billing/invoice.ts',
  '@@ -1,200 +1,200 @@',
  ...Array.from({ length: 196 }, (_, i) =>
    i % 7 === 3 ? `-  const total${i} = lines.reduce((sum, l) => sum + l.amount, 0);` : i % 7 === 4 ? `+  const total${i} = sumAmounts(lines);` : `   // unchanged line ${i + 1}`,
  ),
].join('\n');

/** X2: an approval as `askdock hook` asks it: header the tool, Allow / Deny / Always allow, the diff as its detail. */
const approval = (sessionKey: string, id: string, header = 'Edit') => ({
  id,
  sessionKey,
  questions: [
    {
      id: 'approve',
      header,
      question: 'Allow Edit src/billing/invoice.ts?',
      options: [{ label: 'Allow' }, { label: 'Deny' }, { label: 'Always allow', description: 'Edit(src/billing/**) from now on' }],
      detail: DIFF,
    },
  ],
});

/** An agent connection of its own, asking in the page's session as `askdock hook` would. */
async function asker(gateway: GatewayFixture): Promise<GatewayClient> {
  const client = createNodeClient({ url: gateway.url, token: gateway.agentToken, client: { name: 'e2e approval hook', mode: 'agent' } });
  await client.start();
  return client;
}

const sessionKeyOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

const VIEWS = [
  ['light', 1280, 800],
  ['dark', 1280, 800],
  ['light', 390, 844],
  ['dark', 390, 844],
] as const;

test.describe('[X2] an approval with a diff', () => {
  test('[X2][U3] docks with its diff above the options (12 lines, then it scrolls; Copy copies it whole); 1 and 2 pick Allow and Deny; Ctrl+Enter sends', async ({ page, context, openApp, gateway }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.addInitScript(() => Object.defineProperty(Notification, 'permission', { get: () => 'denied' }));
    const agent = await asker(gateway);
    try {
      await openApp(page);
      await newSession(page);
      const id = `q-approval-${Date.now()}`;
      await agent.request('question.request', approval(sessionKeyOf(page), id));
      const dock = dockOf(page);
      const detail = detailOf(page);
      await expect(detail).toBeVisible();
      await expect(detail).toContainText('+++ b/src/billing/invoice.ts');
      // Above the options, 12 lines high, the rest a scroll away.
      const [block, allow] = [await detail.boundingBox(), await dock.getByRole('radio', { name: 'Allow', exact: true }).boundingBox()];
      expect(block!.y + block!.height).toBeLessThanOrEqual(allow!.y);
      const metrics = await detail.evaluate((el) => {
        const style = getComputedStyle(el);
        const inner = el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
        return { scroll: el.scrollHeight, client: el.clientHeight, lines: inner / parseFloat(style.lineHeight) };
      });
      expect(metrics.scroll).toBeGreaterThan(metrics.client);
      // Twelve lines, less a horizontal scrollbar where the diff is wider than the dock.
      expect(metrics.lines).toBeGreaterThan(11);
      expect(metrics.lines).toBeLessThanOrEqual(12.01);
      await expect(dock.getByText('200 lines')).toBeVisible();

      await dock.getByRole('button', { name: 'Copy' }).click();
      await expect(dock.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(DIFF);

      // The block takes focus to scroll by keyboard, and the number keys still pick from there.
      await detail.focus();
      await page.keyboard.press('PageDown');
      await expect.poll(() => detail.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
      await detail.focus();
      await page.keyboard.press('1');
      await expect(dock.getByRole('radio', { name: 'Allow', exact: true })).toBeChecked();
      await page.keyboard.press('2');
      await expect(dock.getByRole('radio', { name: 'Deny', exact: true })).toBeChecked();

      // What the shots hold is the question as it first shows: no passing "Copied", everything scrolled to its top.
      await expect(dock.getByRole('status').filter({ hasText: 'Copied' })).toHaveCount(0);
      for (const [colorScheme, width, height] of VIEWS) {
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        await page.setViewportSize({ width, height });
        await dock.evaluate((el) => [el, ...el.querySelectorAll('*')].forEach((node) => node.scrollTo({ top: 0 })));
        await page.mouse.move(0, 0);
        // The header's notification menu loads just after the first screen: wait for them, so the shot never differs by it.
        await expect(page.getByRole('banner').getByRole('button', { name: 'Notifications' })).toBeVisible();
        await expect(page).toHaveScreenshot(`approval-diff-${colorScheme}-${width}.png`, {
          mask: [page.locator('time:not(nav time)'), page.getByRole('timer'), page.getByRole('navigation', { name: 'Sessions' })],
        });
        expect(await seriousAxeViolations(page)).toEqual([]);
      }

      await dock.getByRole('radio', { name: 'Deny', exact: true }).focus();
      await page.keyboard.press('Control+Enter');
      await expect(dock).toHaveCount(0);
      await expect.poll(async () => (await agent.request('question.get', { id })).question.answers).toEqual({ approve: ['Deny'] });
    } finally {
      agent.close();
    }
  });

  test('[X2][X6] answered first in the TUI: the dock lets go and the transcript says "Answered elsewhere"', async ({ page, openApp, gateway }) => {
    const agent = await asker(gateway);
    const tui = createNodeClient({ url: gateway.url, token: gateway.operatorToken, client: { name: 'e2e tui', mode: 'tui' } });
    await tui.start();
    try {
      await openApp(page);
      await newSession(page);
      const id = `q-approval-tui-${Date.now()}`;
      await agent.request('question.request', approval(sessionKeyOf(page), id, 'Bash'));
      await expect(detailOf(page)).toBeVisible();
      await tui.request('question.resolve', { id, answers: { approve: ['Allow'] }, surface: 'tui' });
      await expect(dockOf(page)).toHaveCount(0);
      const summary = page.getByRole('log', { name: 'Conversation' }).getByRole('group', { name: 'Question answered elsewhere', exact: true });
      await expect(summary.getByText('Answered elsewhere', { exact: true })).toBeVisible();
      await expect(summary).toContainText('Allow');
    } finally {
      tui.close();
      agent.close();
    }
  });

  test('[X2][U11][U3] the link page shows the detail whole; Cmd+Enter sends', async ({ page, openApp, gateway }) => {
    const agent = await asker(gateway);
    try {
      await openApp(page);
      await newSession(page);
      const id = `q-approval-link-${Date.now()}`;
      await agent.request('question.request', approval(sessionKeyOf(page), id));
      await openApp(page, `/q/${id}`);
      const detail = page.getByRole('group', { name: 'Detail' });
      await expect(detail).toContainText('unchanged line 196');
      const size = await detail.evaluate((el) => {
        const style = getComputedStyle(el);
        return { overflow: el.scrollHeight - el.clientHeight, lines: (el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) / parseFloat(style.lineHeight) };
      });
      expect(size.overflow).toBeLessThanOrEqual(1);
      // One line box per line: a kept newline adds no empty line.
      expect(Math.round(size.lines)).toBeGreaterThanOrEqual(200);
      expect(Math.round(size.lines)).toBeLessThanOrEqual(201);
      expect(await detail.evaluate((el) => el.textContent)).toBe(DIFF);
      // U3: Cmd+Enter (metaKey, as on macOS) sends like Ctrl+Enter.
      await page.getByRole('radio', { name: 'Allow', exact: true }).click();
      await page.keyboard.press('2');
      await expect(page.getByRole('radio', { name: 'Deny', exact: true })).toBeChecked();
      await page.keyboard.press('Meta+Enter');
      await expect.poll(async () => (await agent.request('question.get', { id })).question.answers).toEqual({ approve: ['Deny'] });
    } finally {
      agent.close();
    }
  });
});
