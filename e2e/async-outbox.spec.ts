/** Async answers in the outbox (U9, U10, Q9): Queued offline, Sent once, retried or re-sent after a reload with the same key, discarded in every tab. */
import { expect, test } from './fixtures.ts';
import { seriousAxeViolations } from './axe.ts';
import { dockOf, logOf, shoot, summaryOf } from './dock.ts';
import { askLunch, lunchQuestion, operator } from './lunch.ts';
import { deliveryOf, messageBox, repliesTo, routeGateway, sessionKeyOf, type Gate } from './outbox.ts';

test.describe('async questions and the outbox', () => {
  test('[U9][Q9] offline, the answer waits Queued; back online it is Sent once, and stays confirmed after reload', async ({
    page,
    context,
    openApp,
    gateway,
  }, testInfo) => {
    const dock = await askLunch(page, openApp);
    await context.setOffline(true);
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Offline');
    await dock.getByRole('radio', { name: 'Sushi' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(dock).toBeHidden();
    await expect(deliveryOf(page)).toHaveText('Queued');
    await expect(summaryOf(page, 'Answered')).toContainText('Sushi');
    await expect(messageBox(page)).toBeVisible();
    await shoot(page, testInfo, 'async-queued');

    expect(await seriousAxeViolations(page)).toEqual([]);

    await context.setOffline(false);
    await expect(deliveryOf(page)).toHaveText('Sent', { timeout: 15_000 });
    await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('Thanks — Lunch: Sushi');
    const client = await operator(gateway, 'e2e async check');
    try {
      const id = (await lunchQuestion(client, sessionKeyOf(page))).id;
      const replies = await repliesTo(client, sessionKeyOf(page), id);
      expect(replies.map((m) => m.text)).toEqual(['> Lunch\nSushi']);
      expect((await client.request('question.get', { id })).question).toMatchObject({ status: 'answered', replyMessageId: replies[0].id });
    } finally {
      client.close();
    }
    await shoot(page, testInfo, 'async-sent');

    await page.reload();
    await expect(deliveryOf(page)).toHaveText('Sent');
    await expect(summaryOf(page, 'Answered')).toContainText('Sushi');
    await expect(dock).toBeHidden();
  });

  test('[U9][U11] the link drops mid-send: Sending, unconfirmed; Retry answer re-sends the same row; the gateway holds one reply', async ({
    page,
    openApp,
    gateway,
  }, testInfo) => {
    test.slow();
    const gate: Gate = { cutAfterReply: false, refuse: false, swallowReply: false };
    await routeGateway(page, gate);
    const dock = await askLunch(page, openApp);
    await dock.getByRole('radio', { name: 'Salad' }).click();
    gate.cutAfterReply = true;
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(deliveryOf(page)).toHaveText('Sending');
    await expect(summaryOf(page, 'Answered').locator('.delivery-status')).toHaveAttribute('data-state', 'unconfirmed');
    await expect(summaryOf(page, 'Answered')).toContainText('retrying never sends it twice');
    await shoot(page, testInfo, 'async-unconfirmed');

    const client = await operator(gateway, 'e2e async check');
    try {
      const sessionKey = sessionKeyOf(page);
      const id = (await lunchQuestion(client, sessionKey)).id;
      // The gateway saved it before the link dropped; only the page does not know.
      expect(await repliesTo(client, sessionKey, id)).toHaveLength(1);

      await summaryOf(page, 'Answered').getByRole('button', { name: 'Retry answer' }).click();
      await expect(deliveryOf(page)).toHaveText('Queued');
      gate.refuse = false;
      await expect(deliveryOf(page)).toHaveText('Sent', { timeout: 40_000 });
      const replies = await repliesTo(client, sessionKey, id);
      expect(replies.map((m) => m.text)).toEqual(['> Lunch\nSalad']);
      await shoot(page, testInfo, 'async-retried-sent');
    } finally {
      client.close();
    }
  });

  test('[U9][U10] Discard in one tab reopens the draft in every open tab of the conversation', async ({ page, context, openApp }, testInfo) => {
    const dockA = await askLunch(page, openApp);
    const pageB = await context.newPage();
    await openApp(pageB, new URL(page.url()).pathname);
    const dockB = dockOf(pageB);
    await expect(dockB.getByRole('radio', { name: 'Pizza (Recommended)' })).toBeVisible();

    await context.setOffline(true);
    await dockA.getByRole('radio', { name: 'Salad' }).click();
    // Drafts follow across tabs of one conversation (U10).
    await expect(dockB.getByRole('radio', { name: 'Salad' })).toBeChecked();
    await dockA.getByRole('textbox', { name: 'Other' }).fill('extra dressing');
    await dockA.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(deliveryOf(page)).toHaveText('Queued');
    await expect(deliveryOf(pageB)).toHaveText('Queued');
    await expect(dockB).toBeHidden();

    await summaryOf(page, 'Answered').getByRole('button', { name: 'Discard' }).click();
    await expect(dockA.getByRole('textbox', { name: 'Other' })).toHaveValue('extra dressing');
    await expect(dockB.getByRole('textbox', { name: 'Other' })).toHaveValue('extra dressing');
    await expect(summaryOf(pageB, 'Answered')).toHaveCount(0);
    await shoot(pageB, testInfo, 'async-discarded-other-tab');
    await context.setOffline(false);
  });

  test('[U10][U9] a reload keeps the outbox row and its state; the row is sent again with its same key', async ({ page, openApp, gateway }, testInfo) => {
    test.slow();
    const gate: Gate = { cutAfterReply: false, refuse: false, swallowReply: true };
    await routeGateway(page, gate);
    const dock = await askLunch(page, openApp);
    await dock.getByRole('radio', { name: 'Pizza (Recommended)' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(deliveryOf(page)).toHaveText('Sending');

    await page.reload();
    await expect(deliveryOf(page)).toHaveText('Sending');
    await expect(summaryOf(page, 'Answered')).toContainText('Pizza (Recommended)');
    await shoot(page, testInfo, 'async-sending-after-reload');

    gate.swallowReply = false;
    // The closed tab's send lease runs out, then this tab sends the row again.
    await expect(deliveryOf(page)).toHaveText('Sent', { timeout: 30_000 });
    const client = await operator(gateway, 'e2e async check');
    try {
      const id = (await lunchQuestion(client, sessionKeyOf(page))).id;
      expect(await repliesTo(client, sessionKeyOf(page), id)).toHaveLength(1);
    } finally {
      client.close();
    }
  });
});
