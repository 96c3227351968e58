/**
 * The outbox's Failed state (PRODUCT U9, docs/outbox.md) in a real Chromium against the real gateway: an async answer
 * the gateway refuses shows "Failed" with what it said; Retry answer sends the same row again (its one idempotency key)
 * unless the refusal is final (the question ended), and Discard drops it.
 */
import type { Page, TestInfo, WebSocketRoute } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { askLunch, lunchQuestion, operator } from './lunch.ts';

const logOf = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const lunchSummary = (page: Page) =>
  logOf(page).getByRole('group', { name: /^Question / }).filter({ hasText: 'What should I order for lunch?' });
const sessionKeyOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

type Frame = { type?: string; id?: string; method?: string; params?: { idempotencyKey?: string; replyTo?: unknown } };
const parse = (data: string | Buffer): Frame | null => {
  try {
    return JSON.parse(data.toString()) as Frame;
  } catch {
    return null;
  }
};

/** The idempotency key of every async answer (chat.send with replyTo) this page puts on its socket, in order. */
function answerKeys(page: Page): string[] {
  const keys: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      const f = parse(payload);
      if (f?.type === 'req' && f.method === 'chat.send' && f.params?.replyTo && f.params.idempotencyKey) keys.push(f.params.idempotencyKey);
    }),
  );
  return keys;
}

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test.describe('the outbox: Failed', () => {
  test('[U9] answered from the terminal while this tab was offline: Failed with the reason, one status, no Retry answer (a final refusal); Discard drops it', async ({
    page,
    context,
    openApp,
    gateway,
  }, testInfo) => {
    const keys = answerKeys(page);
    const dock = await askLunch(page, openApp);
    const sessionKey = sessionKeyOf(page);
    await context.setOffline(true);
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Offline');
    await dock.getByRole('radio', { name: 'Sushi' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    const delivery = lunchSummary(page).getByRole('status');
    await expect(delivery).toHaveText('Queued');

    // Meanwhile someone answers it another way; the gateway refuses this tab's reply for good once it is back (Q5).
    const client = await operator(gateway, 'e2e failed check');
    try {
      const id = (await lunchQuestion(client, sessionKey)).id;
      await client.request('question.resolve', { id, answers: { lunch: ['Salad'] } });
      await context.setOffline(false);
      await expect(delivery).toHaveText('Failed', { timeout: 15_000 });
      await expect(delivery).toHaveAccessibleDescription('Not delivered: it was already answered elsewhere.');
      const summary = lunchSummary(page);
      // Retrying could only be refused again: the question ended. One status pill, never "Answered" beside it.
      await expect(summary.getByRole('button', { name: 'Retry answer' })).toHaveCount(0);
      await expect(summary.getByRole('button', { name: 'Edit' })).toHaveCount(0);
      await expect(summary.getByRole('button', { name: 'Discard' })).toBeVisible();
      await expect(summary.getByRole('status')).toHaveCount(1);
      expect(keys).toHaveLength(1);
      await shoot(page, testInfo, 'outbox-failed');

      await summary.getByRole('button', { name: 'Discard' }).click();
      await expect(summary.getByRole('button', { name: 'Retry answer' })).toHaveCount(0);
      await expect(summary.getByText(/^Failed/)).toHaveCount(0);
      await page.reload();
      await expect(lunchSummary(page)).toContainText('Salad');
      await expect(lunchSummary(page).getByText(/^Failed/)).toHaveCount(0);
      // Never a second answer: the gateway holds the terminal's one (its Q9 reply message) and no reply from this tab.
      const { messages } = await client.request('chat.history', { sessionKey, limit: 500 });
      expect(messages.filter((m) => m.replyTo?.questionId === id).map((m) => m.replyTo?.answers)).toEqual([{ lunch: ['Salad'] }]);
      expect((await client.request('question.get', { id })).question).toMatchObject({ status: 'answered', answers: { lunch: ['Salad'] } });
    } finally {
      client.close();
    }
  });

  test('[U9] refused once on its way, Failed; Retry answer sends the same row again and it is Sent, one reply at the gateway', async ({
    page,
    openApp,
    gateway,
  }) => {
    // The page's socket runs through the test, which refuses the first async answer in the gateway's stead.
    let refuse = true;
    const keys: string[] = [];
    await page.routeWebSocket(/\/ws$/, (ws: WebSocketRoute) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        const f = parse(message);
        if (f?.type === 'req' && f.method === 'chat.send' && f.params?.replyTo && f.params.idempotencyKey) keys.push(f.params.idempotencyKey);
        if (refuse && f?.type === 'req' && f.method === 'chat.send' && f.params?.replyTo) {
          refuse = false;
          ws.send(JSON.stringify({ type: 'res', id: f.id, ok: false, error: { code: 'FORBIDDEN', message: 'refused on the way (test)' } }));
          return;
        }
        server.send(message);
      });
      server.onMessage((message) => ws.send(message));
    });
    const dock = await askLunch(page, openApp);
    await dock.getByRole('radio', { name: 'Salad' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    const delivery = lunchSummary(page).getByRole('status');
    await expect(delivery).toHaveText('Failed');
    await expect(delivery).toHaveAccessibleDescription('refused on the way (test)');

    await lunchSummary(page).getByRole('button', { name: 'Retry answer' }).click();
    await expect(delivery).toHaveText('Sent', { timeout: 15_000 });
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const client = await operator(gateway, 'e2e failed check');
    try {
      const sessionKey = sessionKeyOf(page);
      const id = (await lunchQuestion(client, sessionKey)).id;
      const { messages } = await client.request('chat.history', { sessionKey, limit: 500 });
      expect(messages.filter((m) => m.replyTo?.questionId === id).map((m) => m.text)).toEqual(['> Lunch\nSalad']);
    } finally {
      client.close();
    }
  });
});
