import type { Page } from '@playwright/test';
import { SLOW_REPLY } from '../src/agent/demo-agent.ts';
import { createNodeClient } from '../src/client/node.ts';
import { expect, test } from './fixtures.ts';
import { seriousAxeViolations } from './axe.ts';
import { newSession } from './sessions.ts';

/** The addresses of the session links marked as the open page (there should be exactly one). */
async function openSessionLinks(page: Page): Promise<Array<string | null>> {
  const links = await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link').all();
  const open: Array<string | null> = [];
  for (const link of links) if ((await link.getAttribute('aria-current')) === 'page') open.push(await link.getAttribute('href'));
  return open;
}

test.describe('Control UI shell', () => {
  test('[U12][U11] signs in from the link, hides the token, connects and keeps a new session across reload', async ({ page, openApp }) => {
    await openApp(page);
    await expect(page).not.toHaveURL(/token=/);
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Connected');

    await newSession(page);
    const address = page.url();
    const path = new URL(address).pathname;
    await expect.poll(() => openSessionLinks(page)).toEqual([path]);

    await page.reload();
    await expect(page).toHaveURL(address);
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
    await expect(page.getByRole('log', { name: 'Conversation' })).toBeVisible();
    await expect.poll(() => openSessionLinks(page)).toEqual([path]);
  });

  test('[U12] Enter sends and the demo agent echoes; Shift+Enter adds a line', async ({ page, openApp }) => {
    await openApp(page);
    await newSession(page);
    const message = page.getByRole('textbox', { name: 'Message' });
    const log = page.getByRole('log', { name: 'Conversation' });

    await message.fill('hello from the shell test');
    await message.press('Enter');
    await expect(message).toHaveValue('');
    await expect(log.getByRole('article', { name: 'You' })).toContainText('hello from the shell test');
    await expect(log.getByRole('article', { name: 'Agent' })).toContainText('Echo: hello from the shell test');

    await message.pressSequentially('first line');
    await message.press('Shift+Enter');
    await message.pressSequentially('second line');
    await expect(message).toHaveValue('first line\nsecond line');
    await expect(log).not.toContainText('first line');
    await message.press('Enter');
    await expect(log.getByRole('article', { name: 'Agent' }).filter({ hasText: 'second line' })).toContainText(
      'Echo: first line\nsecond line',
    );
  });

  test('[C4] a streamed reply grows in one message and ends', async ({ page, openApp }) => {
    await openApp(page);
    await newSession(page);
    await page.getByRole('textbox', { name: 'Message' }).fill('go slow');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const replies = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Agent' });
    await expect(replies.first()).toContainText('Thinking it over');
    await expect(replies.first()).toContainText(SLOW_REPLY);
    await expect(replies).toHaveCount(1);
    await expect(replies.first()).not.toHaveAttribute('aria-busy');
  });

  test('[C4][C5] while a run streams the page says the agent is working; a failed run leaves an error row with its stop reason', async ({ page, openApp }) => {
    await openApp(page);
    await newSession(page);
    const log = page.getByRole('log', { name: 'Conversation' });
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('go slow');
    await message.press('Enter');
    await expect(page.getByText('Agent is working…')).toBeVisible();
    await expect(log.getByRole('article', { name: 'Agent' }).first()).toContainText(SLOW_REPLY);
    await expect(page.getByText('Agent is working…')).toHaveCount(0);

    await message.fill('please fail');
    await message.press('Enter');
    // Its reason in words, not followed by its own code again.
    await expect(page.getByRole('status').filter({ hasText: 'The agent stopped' })).toHaveText('The agent stopped: it hit an error.');
  });

  test('[U11] going offline shows Offline, coming back reconnects', async ({ page, context, openApp }) => {
    await openApp(page);
    const status = page.getByRole('status', { name: 'Connection' });
    await expect(status).toHaveText('Connected');
    await context.setOffline(true);
    await expect(status).toHaveText('Offline');
    await context.setOffline(false);
    await expect(status).toHaveText('Connected');
  });

  test('without a token it asks for one instead of failing', async ({ page, gateway }) => {
    await page.goto(gateway.url);
    await page.getByRole('textbox', { name: 'Token' }).fill('not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toContainText('did not accept that token');
    // The refused token stays in the field, focused, to be corrected rather than pasted again.
    await expect(page.getByRole('textbox', { name: 'Token' })).toHaveValue('not-a-real-token');
    await expect(page.getByRole('textbox', { name: 'Token' })).toBeFocused();
    await page.getByRole('textbox', { name: 'Token' }).fill(gateway.operatorToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
  });

  test('[U11] a question link to a question that does not exist says so', async ({ page, openApp }) => {
    await openApp(page, '/q/no-such-question');
    await expect(page.getByRole('heading', { name: 'Question no longer available' })).toBeVisible();
    await expect(page).toHaveURL(/\/q\/no-such-question$/);
  });

  test('the home page opens the most recent session', async ({ page, openApp }) => {
    await openApp(page);
    await newSession(page);
    const address = page.url();
    await openApp(page, '/');
    await expect(page).toHaveURL(address);
  });

  test('[C3] "Load earlier" pages back through a long conversation', async ({ page, openApp, gateway }) => {
    const client = createNodeClient({ url: gateway.url, token: gateway.operatorToken, client: { name: 'e2e-seed', mode: 'cli' } });
    await client.start();
    const { session } = await client.request('sessions.create', { title: 'Long talk' });
    for (let i = 1; i <= 30; i++) {
      const n = String(i).padStart(2, '0');
      await client.request('chat.send', { sessionKey: session.key, message: `message ${n}`, idempotencyKey: `e2e-long-${n}-${session.key}` });
    }
    // Each message gets its echo, so 60 in all: more than one page of history.
    await expect
      .poll(async () => (await client.request('chat.history', { sessionKey: session.key, limit: 500 })).messages.length)
      .toBe(60);
    client.close();

    await openApp(page, `/s/${session.key}`);
    const log = page.getByRole('log', { name: 'Conversation' });
    await expect(log).toContainText('Echo: message 30');
    await expect(log).not.toContainText('message 01');
    await log.getByRole('button', { name: 'Load earlier' }).click();
    await expect(log.getByRole('article', { name: 'You' }).first()).toHaveText(/message 01$/);
    await expect(log.getByRole('article')).toHaveCount(60);
    await expect(log.getByRole('button', { name: 'Load earlier' })).toHaveCount(0);
  });

  test('the main screen has no serious or critical axe violations', async ({ page, openApp }, testInfo) => {
    await openApp(page);
    await newSession(page);
    await page.getByRole('textbox', { name: 'Message' }).fill('a message for the screenshot');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expect(page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Agent' })).toBeVisible();

    expect(await seriousAxeViolations(page)).toEqual([]);

    const shot = testInfo.outputPath('main-screen.png');
    await page.screenshot({ path: shot, fullPage: true });
    await testInfo.attach('main screen', { path: shot, contentType: 'image/png' });
  });
});
