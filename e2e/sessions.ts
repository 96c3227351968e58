import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

const sessionPath = /^\/s\/[^/?#]+$/;

/**
 * Starts a session with "New session" and waits for its own address, which it returns. The home page's redirect to
 * the newest session lands on `/s/...` too, so only an address other than the one before the click is the new session.
 */
export async function newSession(page: Page): Promise<string> {
  // Let the home page settle first (on its newest session, or saying there is none), so the redirect cannot come after the click.
  const noSessions = page.getByRole('heading', { name: /^(No sessions yet|Connect an agent)$/, level: 1 });
  await expect.poll(async () => new URL(page.url()).pathname !== '/' || (await noSessions.isVisible())).toBe(true);
  const before = page.url();
  await page.getByRole('navigation', { name: 'Sessions' }).getByRole('button', { name: 'New session' }).click();
  await expect(page).toHaveURL((url) => sessionPath.test(url.pathname) && url.href !== before);
  return page.url();
}
