import { createServer, connect as tcpConnect, type Server } from 'node:net';
import type { Page } from '@playwright/test';
import config from '../playwright.config.ts';
import { expect, test } from './fixtures.ts';
import { askLunch } from './lunch.ts';
import { newSession } from './sessions.ts';

/**
 * A team reaches the gateway at a plain-http name on its network (docs/deploy.md): the page is not a secure context, so
 * `crypto.randomUUID`, the clipboard, notifications and service workers are missing. Chromium resolves `askdock.test` to
 * the test's gateway on 127.0.0.1, which lists the name in `allowedHosts` (S3).
 */
const HOST = 'askdock.test';
const base = config.use?.launchOptions ?? {};
test.use({
  gatewayHosts: [HOST],
  launchOptions: { ...base, args: [...(base.args ?? []), `--host-resolver-rules=MAP ${HOST} 127.0.0.1`] },
});

const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const logOf = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const summaryOf = (page: Page, outcome: string) => logOf(page).getByRole('group', { name: `Question ${outcome.toLowerCase()}`, exact: true });

async function send(page: Page, text: string) {
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
}

test.describe('on a plain-http address that is not localhost', () => {
  test('chat sends, a question is answered, an async answer is sent, and all of it is there after a reload', async ({ page, gateway }) => {
    const port = new URL(gateway.url).port;
    const openApp = async (p: Page, path = '/') => {
      await p.goto(`http://${HOST}:${port}${path}?token=${encodeURIComponent(gateway.operatorToken)}`);
    };
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));

    await openApp(page);
    expect(await page.evaluate(() => ({ secure: window.isSecureContext, uuid: typeof crypto.randomUUID }))).toEqual({ secure: false, uuid: 'undefined' });
    await newSession(page);
    // Notifications exist only in secure contexts: nothing asks the browser for them here (and nothing breaks).
    await expect(page.getByRole('button', { name: 'Enable notifications' })).toHaveCount(0);
    await page.getByRole('banner').getByRole('button', { name: 'Notifications' }).click();
    await page.getByRole('menuitemcheckbox', { name: /^Notify me in this tab/ }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Notifications need a secure address' })).toBeVisible();

    // Send: the message gets its idempotency key without crypto.randomUUID (C2).
    await send(page, 'hello over http');
    await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('Echo: hello over http');
    await expect(page.getByText(/Not sent/)).toHaveCount(0);

    // Answer a blocking question.
    await send(page, 'deploy');
    const dock = page.getByRole('region', { name: 'Questions' });
    await dock.getByRole('radio', { name: 'Production' }).click();
    await dock.getByRole('button', { name: 'Next', exact: true }).click();
    await dock.getByRole('checkbox', { name: 'Email' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(summaryOf(page, 'Answered')).toContainText('Production');
    await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('Production');
    const sessionUrl = new URL(page.url()).pathname;

    // Answer an async question (its answer goes through the outbox as a chat reply).
    const lunchDock = await askLunch(page, openApp);
    await lunchDock.getByRole('radio', { name: 'Sushi' }).click();
    await lunchDock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(lunchDock).toBeHidden();
    const lunchSummary = summaryOf(page, 'Answered');
    await expect(lunchSummary).toContainText('Sushi');
    await expect(lunchSummary.getByRole('status')).toHaveText(/Sent/);
    const lunchUrl = new URL(page.url()).pathname;

    // Reload: both sessions read back from the gateway.
    await page.reload();
    await expect(summaryOf(page, 'Answered')).toContainText('Sushi');
    await expect(summaryOf(page, 'Answered').getByRole('status')).toHaveText(/Sent/);
    await openApp(page, sessionUrl);
    await expect(logOf(page)).toContainText('hello over http');
    await expect(summaryOf(page, 'Answered')).toContainText('Production');
    expect(lunchUrl).not.toBe(sessionUrl);
    expect(problems).toEqual([]);
  });

  test('[S1] behind a proxy that drops the port from Host, the page says why its socket is refused instead of reconnecting forever', async ({ page, gateway }) => {
    const gatewayPort = Number(new URL(gateway.url).port);
    // nginx with `proxy_set_header Host $host`: every request reaches the gateway with the port cut off the Host.
    const proxy: Server = createServer((inbound) => {
      const outbound = tcpConnect(gatewayPort, '127.0.0.1');
      inbound.on('data', (chunk: Buffer) => outbound.write(chunk.toString('latin1').replace(/\r\nHost: askdock\.test:\d+\r\n/i, '\r\nHost: askdock.test\r\n'), 'latin1'));
      outbound.pipe(inbound);
      inbound.on('close', () => outbound.destroy());
      outbound.on('close', () => inbound.destroy());
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
    });
    await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
    try {
      const address = proxy.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      await page.goto(`http://${HOST}:${port}/?token=${encodeURIComponent(gateway.operatorToken)}`);
      await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Refused');
      const alert = page.getByRole('alert').filter({ hasText: 'refuses this page' });
      await expect(alert).toContainText(`origin "http://${HOST}:${port}" differs from the Host "${HOST}" only by the port`);
      await expect(alert).toContainText('proxy_set_header Host $http_host');
    } finally {
      await new Promise((done) => proxy.close(done));
    }
  });
});
