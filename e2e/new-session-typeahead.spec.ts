/**
 * New session, then typing at once: the words typed before the session exists reach its composer, and Enter sends
 * them there (seen once in ten under load: the message never arrived and the session stayed "New session").
 * The gateway's answer to `sessions.create` is held back until the keys are typed, so the race happens every time,
 * whatever the machine's speed.
 */
import type { Page, WebSocketRoute } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { newSession } from './sessions.ts';

/** Routes the page's socket through the test and holds the answers to `sessions.create` until `release()`. */
async function holdSessionCreates(page: Page) {
  const held: (() => void)[] = [];
  let holding = true;
  await page.routeWebSocket(/\/ws$/, (ws: WebSocketRoute) => {
    const server = ws.connectToServer();
    const createIds = new Set<string>();
    ws.onMessage((message) => {
      if (typeof message === 'string') {
        const frame = JSON.parse(message) as { type?: string; id?: string; method?: string };
        if (frame.type === 'req' && frame.method === 'sessions.create' && frame.id) createIds.add(frame.id);
      }
      server.send(message);
    });
    server.onMessage((message) => {
      if (typeof message === 'string' && holding) {
        const frame = JSON.parse(message) as { type?: string; id?: string };
        if (frame.type === 'res' && frame.id && createIds.has(frame.id)) {
          held.push(() => ws.send(message));
          return;
        }
      }
      ws.send(message);
    });
  });
  return {
    heldCount: () => held.length,
    release() {
      holding = false;
      for (const send of held.splice(0)) send();
    },
    hold() {
      holding = true;
    },
  };
}

/** Starts from a session of its own, with the cursor in its composer, as a person who already works in one. */
async function openAnotherSession(page: Page, gate: { release(): void; hold(): void }) {
  gate.release();
  await newSession(page);
  await page.getByRole('textbox', { name: 'Message' }).fill('first');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('first');
  gate.hold();
}

test.describe('New session and type at once', () => {
  test('[C1][U12] what is typed while the session is being made goes into its composer, and Enter sends it there', async ({ page, openApp }) => {
    const gate = await holdSessionCreates(page);
    await openApp(page);
    await openAnotherSession(page, gate);
    const before = page.url();
    await page.getByRole('navigation', { name: 'Sessions' }).getByRole('button', { name: 'New session' }).click();
    await expect.poll(gate.heldCount).toBe(1);
    await page.keyboard.type('deploy');
    await page.keyboard.press('Enter');
    gate.release();
    await expect(page).toHaveURL((url) => /^\/s\/[^/?#]+$/.test(url.pathname) && url.href !== before);
    // The message reached the new session: it is titled from it, and the demo agent asks its deploy questions.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('deploy');
    await expect(page.getByRole('log', { name: 'Conversation' }).getByText('deploy', { exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Questions' })).toBeVisible();
    await expect(page.getByRole('radio', { name: /Staging/ })).toBeVisible();
  });

  test('[C1] typed but not sent: the words wait in the new composer, with the cursor after them', async ({ page, openApp }) => {
    const gate = await holdSessionCreates(page);
    await openApp(page);
    await openAnotherSession(page, gate);
    await page.getByRole('navigation', { name: 'Sessions' }).getByRole('button', { name: 'New session' }).click();
    await expect.poll(gate.heldCount).toBe(1);
    await page.keyboard.type('hello wo');
    await page.keyboard.press('Backspace');
    gate.release();
    const message = page.getByRole('textbox', { name: 'Message' });
    await expect(message).toBeFocused();
    await expect(message).toHaveValue('hello w');
    await page.keyboard.type('orld');
    await expect(message).toHaveValue('hello world');
  });
});
