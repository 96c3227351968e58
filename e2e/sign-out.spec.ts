/**
 * Sign out on a shared machine (S4, docs/security.md): what one person left unsent in this browser is not sent, nor
 * shown, as the next person who signs in here. A message typed offline waits Queued in the outbox; Sign out empties it.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { operator } from './lunch.ts';
import { newSession } from './sessions.ts';

const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const logOf = (page: Page) => page.getByRole('log', { name: 'Conversation' });

test('[S4][U10] Sign out empties the outbox: a message left Queued is never sent as the next person who signs in', async ({ page, context, openApp, gateway }) => {
  const left = `left behind ${Date.now()}`;
  await openApp(page);
  const address = await newSession(page);
  const sessionKey = decodeURIComponent(new URL(address).pathname.split('/').pop()!);
  // The installed app's shell: the service worker serves the page while the network is gone.
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller !== null)), { timeout: 30_000 }).toBe(true);

  await context.setOffline(true);
  await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Offline');
  await messageBox(page).fill(left);
  await messageBox(page).press('Enter');
  await expect(logOf(page).getByRole('article', { name: 'You' }).filter({ hasText: left }).getByRole('status')).toHaveText('Queued');

  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: /Sign out/ }).click();
  await expect(page.getByRole('textbox', { name: 'Token' })).toBeVisible();

  // The next person signs in, online: the conversation holds nothing of the message, here or at the gateway.
  await context.setOffline(false);
  await page.getByRole('textbox', { name: 'Token' }).fill(gateway.operatorToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.goto(address);
  const marker = `signed in again ${Date.now()}`;
  await messageBox(page).fill(marker);
  await messageBox(page).press('Enter');
  // The demo agent's echo of a later message: an outbox that still held the first would have sent it before.
  await expect(logOf(page).getByRole('article', { name: 'Agent' }).filter({ hasText: `Echo: ${marker}` })).toHaveCount(1, { timeout: 30_000 });
  await expect(logOf(page).getByText(left)).toHaveCount(0);
  const client = await operator(gateway, 'e2e sign-out check');
  try {
    const { messages } = await client.request('chat.history', { sessionKey, limit: 500 });
    expect(messages.filter((m) => m.text.includes(left))).toEqual([]);
  } finally {
    client.close();
  }
});
