/**
 * The async trap (PRODUCT U8, PROTOCOL PT1) in a real Chromium: with an async question docked and focus in the composer,
 * the dock's hint says keys type in the message; "2" sent from the composer asks "Send as the answer to Lunch?" before
 * it would retire the question, and yes answers it through the outbox as the dock would.
 */
import { seriousAxeViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { askLunch, lunchQuestion, operator } from './lunch.ts';

test.describe('[U8] the async trap', () => {
  test('"2" in the composer asks first; "Send as answer" answers the question, never a chat message', async ({ page, openApp, gateway }) => {
    const dock = await askLunch(page, openApp);
    const message = page.getByRole('textbox', { name: 'Message' });
    await expect(message).toBeFocused();
    await expect(dock).toContainText('Keys type in your message');
    await expect(dock).not.toContainText('1–4 choose');

    await message.fill('2');
    await page.keyboard.press('Control+Enter');
    const ask = page.getByRole('alertdialog', { name: 'Send as the answer to Lunch?' });
    await expect(ask).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Send as answer' }).click();

    const card = page.getByRole('log', { name: 'Conversation' }).getByRole('group', { name: /^Question / }).filter({ hasText: 'What should I order for lunch?' });
    await expect(card.getByRole('status')).toHaveText('Sent', { timeout: 15_000 });
    await expect(card).toContainText('Sushi');
    await expect(page.getByText('No longer pending')).toHaveCount(0);
    const client = await operator(gateway, 'e2e async trap');
    try {
      const sessionKey = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
      const id = (await lunchQuestion(client, sessionKey)).id;
      const { messages } = await client.request('chat.history', { sessionKey, limit: 500 });
      expect(messages.filter((m) => m.role === 'user').map((m) => m.text)).not.toContain('2');
      expect((await client.request('question.get', { id })).question).toMatchObject({ status: 'answered', answers: { lunch: ['Sushi'] } });
    } finally {
      client.close();
    }
  });
});
