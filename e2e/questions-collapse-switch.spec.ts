import { connect } from '../src/agent/sdk.ts';
import { LUNCH_QUESTIONS } from '../src/agent/demo-agent.ts';
import { expect, test } from './fixtures.ts';
import { askDeploy, send, shoot, summaryOf } from './dock.ts';

// U8, U6: the dock collapsed to its slim bar and reopened, and two pending requests switched with their drafts kept.
test.describe('question dock', () => {
  test('[U1][U8] Esc collapses to a slim bar over the composer; /question reopens; async questions never take focus', async ({
    page,
    openApp,
  }, testInfo) => {
    const dock = await askDeploy(page, openApp);
    await dock.getByRole('radio', { name: 'Production' }).click();
    await page.keyboard.press('Escape');
    const message = page.getByRole('textbox', { name: 'Message' });
    await expect(message).toBeVisible();
    await expect(message).toBeFocused();
    await expect(dock.getByText('1 pending')).toBeVisible();
    // The session's badge in the sidebar reads "1 question pending": "1 pending" is the collapsed bar's alone (U8).
    await expect(page.getByRole('navigation', { name: 'Sessions' })).toContainText('1 question pending');
    await expect(page.getByText('1 pending')).toHaveCount(1);
    await expect(dock).toContainText('Where should I deploy?');
    await shoot(page, testInfo, 'dock-collapsed');

    await send(page, 'async please');
    await expect(dock.getByText('2 pending')).toBeVisible();
    await expect(dock.getByRole('button', { name: 'Expand questions' })).toBeVisible();
    await expect(message).toBeFocused();

    await send(page, '/question');
    await expect(dock.getByRole('radio', { name: 'Production' })).toBeChecked();
    await expect(dock.getByRole('radio', { name: 'Production' })).toBeFocused();
    await expect(message).toBeHidden();
  });

  test('[U6] two pending requests switch with their drafts kept, also across a reload', async ({ page, openApp, gateway }, testInfo) => {
    const dock = await askDeploy(page, openApp);
    const sessionKey = new URL(page.url()).pathname.split('/').pop()!;
    const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'e2e second asker' });
    try {
      await agent.askUserAsync({ questions: LUNCH_QUESTIONS }, { sessionKey });
      await expect(dock.getByText('1/2')).toBeVisible();
      await dock.getByRole('radio', { name: 'Production' }).click();
      await dock.getByRole('button', { name: 'Next', exact: true }).click();
      await dock.getByRole('checkbox', { name: 'Pager' }).click();

      await dock.getByRole('button', { name: 'Next request' }).click();
      await expect(dock.getByText('2/2')).toBeVisible();
      await dock.getByRole('textbox', { name: 'Other' }).fill('Sushi');
      await expect(dock.getByRole('radio', { name: 'Sushi' })).not.toBeChecked();
      await shoot(page, testInfo, 'dock-two-requests');

      await dock.getByRole('button', { name: 'Previous request' }).click();
      await expect(dock.getByText('Question 2 of 2')).toBeVisible();
      await expect(dock.getByRole('checkbox', { name: 'Pager' })).toBeChecked();

      await page.reload();
      await expect(dock.getByRole('checkbox', { name: 'Pager' })).toBeChecked();
      await dock.getByRole('button', { name: 'Back', exact: true }).click();
      await expect(dock.getByRole('radio', { name: 'Production' })).toBeChecked();
      await dock.getByRole('button', { name: 'Next request' }).click();
      await expect(dock.getByRole('textbox', { name: 'Other' })).toHaveValue('Sushi');
      await expect(dock.getByRole('radio', { name: 'Sushi' })).not.toBeChecked();

      await dock.getByRole('button', { name: 'Submit', exact: true }).click();
      await expect(summaryOf(page, 'Answered')).toContainText('Sushi');
      await expect(dock.getByText('Question 1 of 2')).toBeVisible();
      await expect(dock.getByRole('radio', { name: 'Production' })).toBeChecked();
    } finally {
      agent.close();
    }
  });
});
