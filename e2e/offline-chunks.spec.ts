import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { seriousAxeViolations } from './axe.ts';
import { newSession } from './sessions.ts';

// The code chunks are fetched from the network here, never from the installed app's cache, so a blocked one stays blocked.
test.use({ serviceWorkers: 'block' });

/** Makes the chunks whose names match fail as they do when the network drops while they load. */
async function blockChunks(page: Page, names: string[]): Promise<() => Promise<void>> {
  // With or without a query: a load tried again may carry one (retrying-import.ts).
  const url = new RegExp(`/assets/(${names.join('|')})-[^/?]+\\.js(\\?[^/]*)?$`);
  const fail = (route: Route) => route.abort('internetdisconnected');
  await page.route(url, fail);
  return () => page.unroute(url, fail);
}

test.describe('code that cannot be fetched (U11)', () => {
  test('[U11] a chunk that cannot load leaves the app up and shows Offline; back online the missing pieces appear', async ({ page, context, openApp }) => {
    await openApp(page);
    await newSession(page);
    const unblock = await blockChunks(page, ['session-conversation', 'rename-session']);
    await page.reload();

    const status = page.getByRole('status', { name: 'Connection' });
    const message = page.getByRole('textbox', { name: 'Message' });
    const conversation = page.getByRole('log', { name: 'Conversation' });
    const retry = conversation.getByRole('button', { name: 'Retry' });
    await expect(retry).toBeVisible();
    await expect(conversation).toContainText('Could not load the conversation.');
    await expect(message).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Rename session' })).toHaveCount(0);

    await context.setOffline(true);
    await expect(status).toHaveText('Offline');
    await expect(message).toBeVisible();

    await unblock();
    await context.setOffline(false);
    await expect(status).toHaveText('Connected');
    await expect(page.getByRole('button', { name: 'Rename session' })).toBeVisible();
    await expect(retry).toHaveCount(0);
    // The conversation is the real one again: a message goes and its echo comes back into it.
    await message.fill('back online');
    await message.press('Enter');
    await expect(conversation.getByRole('article', { name: 'Agent' })).toContainText('Echo: back online');
  });

  test('[U11] a question docked while its panel could not be fetched shows up once back online', async ({ page, context, openApp }) => {
    const unblock = await blockChunks(page, ['request-panel']);
    await openApp(page);
    await newSession(page);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('deploy');
    await message.press('Enter');
    const dock = page.getByRole('region', { name: 'Questions' });
    const staging = dock.getByRole('radio', { name: 'Staging (Recommended)' });
    await expect(dock).toHaveCount(1);
    await expect(staging).toHaveCount(0);

    await context.setOffline(true);
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Offline');
    await unblock();
    await context.setOffline(false);
    await expect(staging).toBeVisible();
    await expect(dock.getByText('Question 1 of 2')).toBeVisible();
  });

  test('[U11] a page whose code could not be fetched says so, and Retry loads it', async ({ page, openApp }) => {
    const unblock = await blockChunks(page, ['question-link-page']);
    await openApp(page, '/q/no-such-question');
    const retry = page.getByRole('main').getByRole('button', { name: 'Retry' });
    await expect(retry).toBeVisible();
    await expect(page.getByRole('main')).toContainText('Could not load this question.');
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await unblock();
    await retry.click();
    await expect(page.getByRole('heading', { name: 'Question no longer available' })).toBeVisible();
    await expect(retry).toHaveCount(0);
  });
});
