/**
 * A chat message typed offline is never lost (PRODUCT U11, U17; docs/outbox.md) in a real Chromium against the real
 * gateway: it waits Queued in the transcript, stays Queued through a reload while still offline (the service worker
 * serves the shell, the outbox keeps the row and its key), and once back online it is in the conversation exactly
 * once, at the gateway too (the demo agent echoes it once).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { seriousAxeViolations } from './axe.ts';
import { operator } from './lunch.ts';
import { newSession } from './sessions.ts';

const SHOTS = process.env.ASKDOCK_OUTBOX_SHOTS;
const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const logOf = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const sessionKeyOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

/** The idempotency key of every chat.send carrying `text` that this page puts on its sockets, in order. */
function keysFor(page: Page, text: string): string[] {
  const keys: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      try {
        const f = JSON.parse(payload.toString()) as { method?: string; params?: { message?: string; idempotencyKey?: string } };
        if (f.method === 'chat.send' && f.params?.message === text && f.params.idempotencyKey) keys.push(f.params.idempotencyKey);
      } catch {
        // not a frame of ours
      }
    }),
  );
  return keys;
}

/** Screenshots of the queued message for a look next to the answers' outbox states (outside the repository). */
async function shootQueued(page: Page) {
  if (!SHOTS) return;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `${SHOTS}/queued-message-${width}-${colorScheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('[U11][U17][C2] a message sent offline waits Queued, survives a reload while offline, and is in the conversation once when back', async ({
  page,
  context,
  openApp,
  gateway,
}) => {
  const text = `offline hello ${Date.now()}`;
  const keys = keysFor(page, text);
  await openApp(page);
  await newSession(page);
  const sessionKey = sessionKeyOf(page);
  // The installed app's shell: the service worker controls the page before the network goes.
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller !== null)), { timeout: 30_000 }).toBe(true);

  await context.setOffline(true);
  await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Offline');
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
  await expect(messageBox(page)).toHaveValue('');
  const mine = () => logOf(page).getByRole('article', { name: 'You' }).filter({ hasText: text });
  await expect(mine()).toHaveCount(1);
  await expect(mine().getByRole('status')).toHaveText('Queued');
  expect(await seriousAxeViolations(page)).toEqual([]);
  await shootQueued(page);

  await page.reload();
  // The shell came from the service worker; the socket cannot open.
  await expect(page.getByRole('status', { name: 'Connection' })).toHaveText(/^(Offline|Reconnecting)/);
  await expect(mine()).toHaveCount(1);
  await expect(mine().getByRole('status')).toHaveText('Queued');
  expect(keys).toEqual([]);

  await context.setOffline(false);
  const echo = logOf(page).getByRole('article', { name: 'Agent' }).filter({ hasText: `Echo: ${text}` });
  await expect(echo).toHaveCount(1, { timeout: 30_000 });
  // Once in the transcript, now from the saved history: no delivery word left on it, and no second copy.
  await expect(mine()).toHaveCount(1);
  await expect(mine().getByRole('status')).toHaveCount(0);
  expect(new Set(keys).size).toBe(1);

  const client = await operator(gateway, 'e2e outbox message check');
  try {
    const { messages } = await client.request('chat.history', { sessionKey, limit: 500 });
    expect(messages.filter((m) => m.role === 'user' && m.text === text)).toHaveLength(1);
    expect(messages.filter((m) => m.role === 'assistant' && m.text === `Echo: ${text}`)).toHaveLength(1);
  } finally {
    client.close();
  }
  await page.reload();
  await expect(echo).toHaveCount(1);
  await expect(mine()).toHaveCount(1);
});
