import { expect, test } from './fixtures.ts';
import { askDeploy, dockOf, logOf, shoot, summaryOf } from './dock.ts';

// U2-U5, U7: a prompt answered by mouse, by keyboard, with Other, skipped, answered elsewhere or expired, and the summary it leaves.
test.describe('question dock', () => {
  test('[U1][U2][U7] answered by mouse: one question at a time, then a summary with each answer', async ({ page, openApp }, testInfo) => {
    const dock = await askDeploy(page, openApp);
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeHidden();
    await expect(dock.getByText('Question 1 of 2')).toBeVisible();
    await expect(dock.getByRole('timer')).toHaveText(/^1[45]:\d\d left$/);
    await expect(dock.getByRole('radio', { name: 'Staging (Recommended)' })).toBeFocused();
    await shoot(page, testInfo, 'dock-expanded');

    await dock.getByRole('radio', { name: 'Production' }).click();
    await dock.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(dock.getByText('Question 2 of 2')).toBeVisible();
    await dock.getByRole('checkbox', { name: 'Email' }).click();
    await dock.getByRole('checkbox', { name: 'Slack' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();

    await expect(dock).toBeHidden();
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
    const summary = summaryOf(page, 'Answered');
    await expect(summary).toContainText('Where should I deploy?');
    await expect(summary).toContainText('Production');
    await expect(summary).toContainText('Email, Slack');
    await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('Production');
    await shoot(page, testInfo, 'summary-answered');
  });

  test('[U3] answered by keyboard alone: number keys and Ctrl+Enter', async ({ page, openApp }) => {
    const dock = await askDeploy(page, openApp);
    await expect(dock.getByRole('radio', { name: 'Staging (Recommended)' })).toBeFocused();
    await page.keyboard.press('2');
    await expect(dock.getByRole('radio', { name: 'Production' })).toBeChecked();
    await page.keyboard.press('Control+Enter');
    await expect(dock.getByText('Question 2 of 2')).toBeVisible();
    await expect(dock.getByRole('checkbox', { name: 'Email' })).toBeFocused();
    await page.keyboard.press('1');
    await page.keyboard.press('3');
    await expect(dock.getByRole('checkbox', { name: 'Pager' })).toBeChecked();
    await page.keyboard.press('Control+Enter');
    await expect(dock).toBeHidden();
    const summary = summaryOf(page, 'Answered');
    await expect(summary).toContainText('Production');
    await expect(summary).toContainText('Email, Pager');
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
  });

  test('[U1][U3] after a reload a blocking question takes focus as when it came in: its checked choice, and a number key picks from there', async ({ page, openApp }) => {
    const dock = await askDeploy(page, openApp);
    await dock.getByRole('radio', { name: 'Production' }).click();
    await page.reload();
    await expect(dock.getByRole('radio', { name: 'Production' })).toBeChecked();
    await expect(dock.getByRole('radio', { name: 'Production' })).toBeFocused();
    await page.keyboard.press('1');
    await expect(dock.getByRole('radio', { name: 'Staging (Recommended)' })).toBeChecked();
    await expect(dock.getByRole('radio', { name: 'Staging (Recommended)' })).toBeFocused();
  });

  test('[U4] Other text is submitted: it deselects on single-select and goes beside the choices on multi-select', async ({ page, openApp }) => {
    const dock = await askDeploy(page, openApp);
    await dock.getByRole('radio', { name: 'Production' }).click();
    const other = dock.getByRole('textbox', { name: 'Other' });
    await other.fill('canary in staging');
    await expect(dock.getByRole('radio', { name: 'Production' })).not.toBeChecked();
    // Digits typed into Other stay text.
    await other.press('End');
    await other.pressSequentially(' 2');
    await expect(other).toHaveValue('canary in staging 2');
    await other.press('Control+Enter');
    await dock.getByRole('checkbox', { name: 'Slack' }).click();
    await dock.getByRole('textbox', { name: 'Other' }).fill('the ops channel');
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    const summary = summaryOf(page, 'Answered');
    await expect(summary).toContainText('canary in staging 2');
    await expect(summary).toContainText('Slack, the ops channel');
  });

  test('[U5] Skip declines the whole prompt and keeps the wording beside "Skipped"', async ({ page, openApp }, testInfo) => {
    const dock = await askDeploy(page, openApp);
    await dock.getByRole('button', { name: 'Skip', exact: true }).click();
    await expect(dock).toBeHidden();
    const summary = summaryOf(page, 'Skipped');
    await expect(summary).toContainText('Skipped');
    await expect(summary).toContainText('Where should I deploy?');
    await expect(summary).toContainText('Who should I notify when the deploy is done?');
    await shoot(page, testInfo, 'summary-skipped');
  });

  test('[U6][U7] two browsers of one person answer one question: one wins, the other says "Answered elsewhere" (in another tab or browser)', async ({ page, browser, openApp }, testInfo) => {
    const dockA = await askDeploy(page, openApp);
    const other = await browser.newContext();
    const pageB = await other.newPage();
    try {
      await openApp(pageB, new URL(page.url()).pathname);
      const dockB = dockOf(pageB);
      await expect(dockB).toBeVisible();
      for (const [dock, env, notify] of [
        [dockA, 'Staging (Recommended)', 'Email'],
        [dockB, 'Production', 'Pager'],
      ] as const) {
        await dock.getByRole('radio', { name: env }).click();
        await dock.getByRole('button', { name: 'Next', exact: true }).click();
        await dock.getByRole('checkbox', { name: notify }).click();
      }
      // B submits while its network is down, so its resolve reaches the gateway only after A's has won.
      await other.setOffline(true);
      await expect(pageB.getByRole('status', { name: 'Connection' })).toHaveText('Offline');
      await dockB.getByRole('button', { name: 'Submit', exact: true }).click();
      await expect(dockB.getByText('Sending…')).toBeVisible();
      await expect(dockB.getByRole('button', { name: 'Submit', exact: true })).toBeDisabled();

      await dockA.getByRole('button', { name: 'Submit', exact: true }).click();
      await expect(dockA).toBeHidden();
      await expect(summaryOf(page, 'Answered')).toContainText('Staging (Recommended)');

      await other.setOffline(false);
      await expect(dockB).toBeHidden();
      const lost = summaryOf(pageB, 'Answered elsewhere');
      await expect(lost.getByText('Answered elsewhere', { exact: true })).toBeVisible();
      await expect(lost.getByText('in another tab or browser', { exact: true })).toBeVisible();
      await expect(lost).toContainText('Staging (Recommended)');
      await expect(lost).toContainText('Email');
      await expect(lost).not.toContainText('Pager');
      await shoot(pageB, testInfo, 'summary-answered-elsewhere');
    } finally {
      await other.close();
    }
  });

  test('[U7] an expired question keeps its wording beside "Expired"', async ({ page, openApp }, testInfo) => {
    test.slow();
    const dock = await askDeploy(page, openApp, 'deploy timeout=30');
    await expect(dock.getByRole('timer')).toHaveText(/^0:[0-3]\d left$/);
    await dock.getByRole('radio', { name: 'Production' }).click();
    await expect(dock).toBeHidden({ timeout: 40_000 });
    const summary = summaryOf(page, 'Expired');
    await expect(summary).toContainText('Where should I deploy?');
    await shoot(page, testInfo, 'summary-expired');
  });
});
