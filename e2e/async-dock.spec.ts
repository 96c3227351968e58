/** Async questions in the dock (U8, Q10): they take no focus, yield to blocking ones, retire after a later run, and Skip. */
import { expect, test } from './fixtures.ts';
import { logOf, send, shoot, summaryOf } from './dock.ts';
import { askLunch, lunchQuestion, operator } from './lunch.ts';
import { deliveryOf, messageBox, repliesTo, sessionKeyOf } from './outbox.ts';

test.describe('async questions and the outbox', () => {
  test('[U8] an async question docks without taking focus; the composer stays usable; its own turn does not dismiss it', async ({
    page,
    openApp,
  }, testInfo) => {
    const dock = await askLunch(page, openApp);
    await expect(messageBox(page)).toBeFocused();
    await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('I asked about lunch');
    await expect(dock.getByRole('radio', { name: 'Pizza (Recommended)' })).toBeVisible();
    await messageBox(page).fill('still typing here');
    await expect(messageBox(page)).toHaveValue('still typing here');
    await shoot(page, testInfo, 'async-docked');

    await dock.getByRole('button', { name: 'Collapse questions' }).click();
    await expect(dock).toContainText('1 pending');
    await expect(dock).toContainText('What should I order for lunch?');
    await expect(messageBox(page)).toHaveValue('still typing here');
    await shoot(page, testInfo, 'async-collapsed', dock);
  });

  test('[U6][U8] a new blocking question takes priority; the async one stays reachable through the request arrows', async ({ page, openApp }) => {
    const dock = await askLunch(page, openApp);
    await send(page, 'deploy now');
    await expect(dock.getByRole('radio', { name: 'Staging (Recommended)' })).toBeFocused();
    await expect(messageBox(page)).toBeHidden();
    await dock.getByRole('button', { name: 'Previous request' }).click();
    await expect(dock.getByRole('radio', { name: 'Sushi' })).toBeVisible();
    await expect(messageBox(page)).toBeVisible();
  });

  test('[Q10][U8] a later successful run retires the reminder, a failed one does not; Answer reopens it with the draft kept', async ({
    page,
    openApp,
    gateway,
  }, testInfo) => {
    const dock = await askLunch(page, openApp);
    await dock.getByRole('radio', { name: 'Sushi' }).click();
    const client = await operator(gateway, 'e2e async check');
    try {
      const id = (await lunchQuestion(client, sessionKeyOf(page))).id;

      await send(page, 'fail on purpose');
      await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('This run fails on purpose.');
      await expect.poll(async () => (await client.request('question.get', { id })).question.retiredAtMs).toBeUndefined();
      await expect(dock.getByRole('radio', { name: 'Sushi' })).toBeChecked();

      await send(page, 'hello again');
      await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('Echo: hello again');
      await expect(dock).toBeHidden();
      const reminder = summaryOf(page, 'No longer pending');
      await expect(reminder).toContainText('What should I order for lunch?');
      const { question } = await client.request('question.get', { id });
      expect(question.status).toBe('pending');
      expect(question.retiredAtMs).toEqual(expect.any(Number));
      await shoot(page, testInfo, 'async-retired');

      await reminder.getByRole('button', { name: 'Answer' }).click();
      await expect(dock.getByRole('radio', { name: 'Sushi' })).toBeChecked();
      await expect(dock.getByRole('radio', { name: 'Sushi' })).toBeFocused();
      await shoot(page, testInfo, 'async-reopened');
    } finally {
      client.close();
    }
  });

  test('[U8][Q10] a reminder put back by Discard or Answer leaves the dock when a later run retires it, and stays out after reload', async ({
    page,
    context,
    openApp,
  }, testInfo) => {
    const dock = await askLunch(page, openApp);
    await context.setOffline(true);
    await dock.getByRole('radio', { name: 'Salad' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(deliveryOf(page)).toHaveText('Queued');
    await summaryOf(page, 'Answered').getByRole('button', { name: 'Discard' }).click();
    await expect(dock.getByRole('radio', { name: 'Salad' })).toBeChecked();
    await context.setOffline(false);

    await send(page, 'hello again');
    await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('Echo: hello again');
    await expect(dock).toBeHidden();
    await expect(summaryOf(page, 'No longer pending')).toContainText('What should I order for lunch?');
    await page.reload();
    await expect(summaryOf(page, 'No longer pending')).toContainText('What should I order for lunch?');
    await expect(dock).toBeHidden();

    await summaryOf(page, 'No longer pending').getByRole('button', { name: 'Answer' }).click();
    await expect(dock.getByRole('radio', { name: 'Salad' })).toBeChecked();
    await send(page, 'and once more');
    await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('Echo: and once more');
    await expect(dock).toBeHidden();
    await page.reload();
    await expect(summaryOf(page, 'No longer pending')).toContainText('What should I order for lunch?');
    await expect(dock).toBeHidden();
    await shoot(page, testInfo, 'async-retired-again');
  });

  test('[U8] Skip sends nothing and keeps a summary; Undo for a few seconds puts it back with its draft', async ({
    page,
    openApp,
    gateway,
  }, testInfo) => {
    test.slow();
    const dock = await askLunch(page, openApp);
    await dock.getByRole('textbox', { name: 'Other' }).fill('Ramen');
    await dock.getByRole('button', { name: 'Skip', exact: true }).click();
    await expect(dock).toBeHidden();
    const skipped = summaryOf(page, 'Skipped');
    await expect(skipped).toContainText('What should I order for lunch?');
    await shoot(page, testInfo, 'async-skipped');

    const client = await operator(gateway, 'e2e async check');
    try {
      const lunch = await lunchQuestion(client, sessionKeyOf(page));
      expect(lunch.status).toBe('pending');
      expect(await repliesTo(client, sessionKeyOf(page), lunch.id)).toEqual([]);
    } finally {
      client.close();
    }

    await skipped.getByRole('button', { name: 'Undo' }).click();
    await expect(dock.getByRole('textbox', { name: 'Other' })).toHaveValue('Ramen');
    await expect(summaryOf(page, 'Skipped')).toHaveCount(0);

    await dock.getByRole('button', { name: 'Skip', exact: true }).click();
    await expect(summaryOf(page, 'Skipped').getByRole('button', { name: 'Undo' })).toBeVisible();
    await expect(summaryOf(page, 'Skipped').getByRole('button', { name: 'Undo' })).toBeHidden({ timeout: 12_000 });
    await page.reload();
    await expect(summaryOf(page, 'Skipped')).toContainText('What should I order for lunch?');
    await expect(dock).toBeHidden();
  });
});
