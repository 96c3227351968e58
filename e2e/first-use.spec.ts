/** What a first-time user trips over in the Control UI (issue: the defects found by trying every flow). */
import type { Page } from '@playwright/test';
import { connect } from '../src/agent/sdk.ts';
import { expect, test } from './fixtures.ts';
import { newSession } from './sessions.ts';

const LONG = 'x'.repeat(600);
const RTL = '\u202Eevil override ‮ and more';

async function pageIsNotWider(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
}

test.describe('first use', () => {
  test('[U12] New session puts the cursor in the composer', async ({ page, openApp }) => {
    await openApp(page);
    await newSession(page);
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
  });

  test('[U11] the top bar keeps its height when the connection state changes', async ({ page, context, openApp }) => {
    await openApp(page);
    const status = page.getByRole('status', { name: 'Connection' });
    await expect(status).toHaveText('Connected');
    const header = page.locator('header');
    const before = (await header.boundingBox())!.height;
    await context.setOffline(true);
    await expect(status).toHaveText('Offline');
    await expect(page.getByRole('button', { name: 'Reconnect now' })).toBeVisible();
    expect((await header.boundingBox())!.height).toBe(before);
    await context.setOffline(false);
    await expect(status).toHaveText('Connected');
    expect((await header.boundingBox())!.height).toBe(before);
  });

  for (const width of [1280, 390]) {
    test(`[U15][U12] a long unbroken session title (Rename session) never widens the page; Rename stays in reach (${width} px)`, async ({ page, openApp }) => {
      await page.setViewportSize({ width, height: 800 });
      await openApp(page);
      await newSession(page);
      const message = page.getByRole('textbox', { name: 'Message' });
      await message.fill('hello');
      await message.press('Enter');
      const rename = page.getByRole('button', { name: 'Rename session' });
      await rename.click();
      const title = `${'t'.repeat(190)} ${RTL}`.slice(0, 200);
      await page.getByRole('textbox', { name: 'Session title' }).fill(title);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
      // Narrow screens fold the sessions list away; wide ones show the title there too.
      if (width >= 640) await expect(page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: title })).toHaveCount(1);
      await pageIsNotWider(page);
      await expect(rename).toBeInViewport();
    });

    test(`[U7][U12] long unbroken text and RTL overrides never widen the page (${width} px)`, async ({ page, openApp, gateway }) => {
      await page.setViewportSize({ width, height: 800 });
      await openApp(page);
      const address = await newSession(page);
      const sessionKey = decodeURIComponent(new URL(address).pathname.split('/').pop()!);
      const message = page.getByRole('textbox', { name: 'Message' });
      await message.fill(`${LONG} ${RTL}`);
      await message.press('Enter');
      await expect(page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Agent' })).toContainText('Echo:');
      const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'e2e-first-use' });
      const abort = new AbortController();
      try {
        const asked = agent.askUser(
          {
            questions: [
              {
                id: 'pick',
                header: `${RTL}`.slice(0, 12),
                question: `${LONG} ${RTL}?`,
                options: [{ label: 'y'.repeat(64), description: LONG.slice(0, 200) }, { label: `${RTL}`.slice(0, 20) }],
              },
            ],
          },
          { sessionKey, signal: abort.signal },
        );
        asked.catch(() => undefined);
        const dock = page.getByRole('region', { name: 'Questions' });
        await expect(dock).toBeVisible();
        await pageIsNotWider(page);
        await dock.getByRole('button', { name: 'Skip', exact: true }).click();
        await expect(dock).toBeHidden();
        await pageIsNotWider(page);
      } finally {
        abort.abort();
        agent.close();
      }
    });
  }

  test('[U12][U15] 390 px: one top bar (menu, title, status); the sessions list is a drawer the menu opens and Escape closes', async ({ page, openApp }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openApp(page);
    await newSession(page);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('drawer check');
    await message.press('Enter');
    const header = page.getByRole('banner');
    await expect(header.getByRole('heading', { level: 1 })).toHaveText('drawer check');
    await expect(header.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
    // One bar: the conversation starts right under it.
    const bar = (await header.boundingBox())!;
    const main = (await page.getByRole('main').boundingBox())!;
    expect(main.y).toBeLessThanOrEqual(bar.y + bar.height + 1);
    expect(bar.height).toBeLessThan(64);

    const nav = page.getByRole('navigation', { name: 'Sessions' });
    await expect(nav.getByRole('link', { name: /drawer check/ })).toBeHidden();
    const menu = nav.getByRole('button', { name: 'Open sessions' });
    await menu.click();
    await expect(nav.getByRole('link', { name: /drawer check/ })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'New session' })).toBeVisible();
    await expect(nav.getByText('Today')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(nav.getByRole('link', { name: /drawer check/ })).toBeHidden();
    await expect(nav.getByRole('button', { name: 'Open sessions' })).toBeFocused();
    // `/` still finds the search box: the drawer opens around it.
    await page.keyboard.press('/');
    await expect(nav.getByRole('searchbox', { name: 'Search' })).toBeFocused();
    await expect(nav.getByRole('link', { name: /drawer check/ })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(nav.getByRole('link', { name: /drawer check/ })).toBeHidden();
    // A picked session closes the drawer.
    await menu.click();
    await nav.getByRole('link', { name: /drawer check/ }).click();
    await expect(nav.getByRole('link', { name: /drawer check/ })).toBeHidden();
  });
});
