import type { Locator, Page, TestInfo } from '@playwright/test';
import { connect } from '../src/agent/sdk.ts';
import { LUNCH_QUESTIONS } from '../src/agent/demo-agent.ts';
import { expect, test } from './fixtures.ts';
import { seriousAxeViolations } from './axe.ts';
import { askLunch } from './lunch.ts';
import { newSession } from './sessions.ts';

async function send(page: Page, text: string) {
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill(text);
  await message.press('Enter');
}

const dockOf = (page: Page) => page.getByRole('region', { name: 'Questions' });
const logOf = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const summaryOf = (page: Page, outcome: string) => logOf(page).getByRole('group', { name: `Question ${outcome.toLowerCase()}`, exact: true });

async function shoot(page: Page, testInfo: TestInfo, name: string, target?: Locator) {
  const path = testInfo.outputPath(`${name}.png`);
  await (target ?? page).screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Opens a new session and asks the demo agent for its two-question deploy prompt. */
async function askDeploy(page: Page, openApp: (page: Page, path?: string) => Promise<void>, message = 'deploy') {
  await openApp(page);
  await newSession(page);
  await send(page, message);
  await expect(dockOf(page)).toBeVisible();
  return dockOf(page);
}

/** Whether who asks shows whole: its name is not cut to an ellipsis (U12's header keeps "Asked by <name>" readable). */
async function askerShowsWhole(dock: Locator) {
  return dock.getByText('Asked by', { exact: true }).evaluate((label) => {
    const name = label.parentElement!;
    return name.scrollWidth <= name.clientWidth;
  });
}

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

  test('[U1][U7] a tall dock keeps the conversation at its newest message; at 390 px the slim bar keeps the question, its time left and Expand questions in sight', async ({
    page,
    openApp,
  }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openApp(page);
    await newSession(page);
    for (let i = 1; i <= 6; i++) {
      await send(page, `note ${i}`);
      await expect(logOf(page).getByText(`Echo: note ${i}`)).toBeVisible();
    }
    await send(page, 'deploy now');
    const dock = dockOf(page);
    await expect(dock.getByRole('radio', { name: 'Production' })).toBeVisible();
    // The message that asked is the newest row: still in view above the dock, not scrolled under it; also when the
    // page opens with the dock already there (a reload: the log used to open at its top now and then).
    await expect(logOf(page).getByText('deploy now', { exact: true })).toBeInViewport({ ratio: 1 });
    await page.reload();
    await expect(dock.getByRole('radio', { name: 'Production' })).toBeVisible();
    await expect(logOf(page).getByText('deploy now', { exact: true })).toBeInViewport({ ratio: 1 });

    await dock.getByRole('button', { name: 'Collapse questions' }).click();
    await expect(dock.getByText('1 pending')).toBeVisible();
    await expect(dock.getByText('Where should I deploy?')).toBeVisible();
    await expect(dock.getByRole('timer')).toHaveText(/left$/);
    const bar = await dock.boundingBox();
    const expand = await dock.getByRole('button', { name: 'Expand questions' }).boundingBox();
    expect(bar && expand).toBeTruthy();
    expect(expand!.x + expand!.width).toBeLessThanOrEqual(bar!.x + bar!.width);
    await expect(logOf(page).getByText('deploy now', { exact: true })).toBeInViewport({ ratio: 1 });
    await shoot(page, testInfo, 'collapsed-390');
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

  test('[U6][U12] with two requests pending, the header fits at 390 px: who asks on a line of its own, the pager, the time or mode and Collapse in sight; one row at 1280 px', async ({
    page,
    openApp,
    gateway,
  }, testInfo) => {
    const dock = await askDeploy(page, openApp);
    const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'e2e second asker' });
    /** The header's controls, each wholly inside the dock's width, and their rows (by vertical centre). */
    const rowsOfHeader = async () => {
      const box = (await dock.boundingBox())!;
      const rows = new Set<number>();
      for (const name of ['Previous request', 'Next request', 'Collapse questions']) {
        const b = (await dock.getByRole('button', { name }).boundingBox())!;
        expect(b.x, name).toBeGreaterThanOrEqual(box.x);
        expect(b.x + b.width, name).toBeLessThanOrEqual(box.x + box.width);
        rows.add(Math.round(b.y + b.height / 2));
      }
      return rows.size;
    };
    try {
      await agent.askUserAsync({ questions: LUNCH_QUESTIONS }, { sessionKey: decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!) });
      await expect(dock.getByText('1/2')).toBeVisible();
      await page.setViewportSize({ width: 390, height: 844 });
      for (const position of ['1/2', '2/2']) {
        if (position === '2/2') await dock.getByRole('button', { name: 'Next request' }).click();
        await expect(dock.getByText(position)).toBeVisible();
        await expect(dock.getByText('Asked by', { exact: true })).toBeVisible();
        expect(await askerShowsWhole(dock)).toBe(true);
        expect(await rowsOfHeader()).toBe(1);
        await shoot(page, testInfo, `header-two-requests-${position.replace('/', '-of-')}-390`);
      }
      // Shortened on screen, whole (and once) for screen readers.
      await expect(dock.getByText('Not blocking', { exact: true })).toBeVisible();
      expect((await dock.ariaSnapshot()).match(/Not blocking[^\n]*/g)).toEqual(['Not blocking the agent']);
      const asker = dock.getByText('Asked by', { exact: true });
      const collapse = dock.getByRole('button', { name: 'Collapse questions' });
      expect((await asker.boundingBox())!.y + (await asker.boundingBox())!.height).toBeLessThanOrEqual((await collapse.boundingBox())!.y);
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await rowsOfHeader()).toBe(1);
      // Who asks shares the row with the controls there.
      const [a, c] = [(await asker.boundingBox())!, (await collapse.boundingBox())!];
      expect(a.y).toBeLessThan(c.y + c.height);
      expect(c.y).toBeLessThan(a.y + a.height);
    } finally {
      agent.close();
    }
  });

  test('[U6][U12] with one async request, the header fits at 390 px: who asks whole on a line of its own, "Not blocking the agent" under it with Collapse; one row at 1280 px', async ({
    page,
    openApp,
  }, testInfo) => {
    const dock = await askLunch(page, openApp);
    const asker = dock.getByText('Asked by', { exact: true });
    const pill = dock.getByText('Not blocking the agent', { exact: true });
    const collapse = dock.getByRole('button', { name: 'Collapse questions' });
    const box = async (l: Locator) => (await l.boundingBox())!;
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(asker).toBeVisible();
    await expect(pill).toBeVisible();
    expect(await askerShowsWhole(dock)).toBe(true);
    await shoot(page, testInfo, 'header-one-async-request-390', dock);
    // The chip is the text's parent: its edge, not its padded text, lines up with the name.
    const [a, p, c, d] = [await box(asker), await box(pill.locator('..')), await box(collapse), await box(dock)];
    // Who asks above; the chip starts where the name does and shares its row with Collapse, which stays in the dock.
    expect(a.y + a.height).toBeLessThanOrEqual(p.y);
    expect(Math.abs(p.x - a.x)).toBeLessThanOrEqual(1);
    expect(p.y).toBeLessThan(c.y + c.height);
    expect(c.y).toBeLessThan(p.y + p.height);
    expect(c.x + c.width).toBeLessThanOrEqual(d.x + d.width);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await askerShowsWhole(dock)).toBe(true);
    const [a2, c2] = [await box(asker), await box(collapse)];
    expect(a2.y).toBeLessThan(c2.y + c2.height);
    expect(c2.y).toBeLessThan(a2.y + a2.height);
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

  test('[U12] narrow screens show the prompt as stacked cards with one Submit; axe finds nothing serious', async ({ page, openApp }, testInfo) => {
    await page.setViewportSize({ width: 400, height: 820 });
    const dock = await askDeploy(page, openApp);
    await expect(dock.getByRole('group', { name: 'Environment', exact: true })).toBeVisible();
    await expect(dock.getByRole('group', { name: 'Notify', exact: true })).toBeVisible();
    await expect(dock.getByRole('button', { name: 'Next', exact: true })).toHaveCount(0);
    await expect(dock.getByRole('button', { name: 'Submit', exact: true })).toHaveCount(1);
    await shoot(page, testInfo, 'dock-narrow');

    expect(await seriousAxeViolations(page)).toEqual([]);

    await dock.getByRole('group', { name: 'Environment', exact: true }).getByRole('radio', { name: 'Production' }).click();
    await dock.getByRole('group', { name: 'Notify', exact: true }).getByRole('checkbox', { name: 'Email' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(summaryOf(page, 'Answered')).toContainText('Email');
  });

  test('[U12] the wide dock and its summaries have no serious axe violations, in the light and the dark theme', async ({ page, openApp }) => {
    await askDeploy(page, openApp);
    const severeIn = async (colorScheme: 'light' | 'dark') => {
      // Reduced motion: no colour transition is caught half-way when the theme flips.
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      return (await seriousAxeViolations(page)).map((v) => ({ colorScheme, ...v }));
    };
    expect(await severeIn('light')).toEqual([]);
    expect(await severeIn('dark')).toEqual([]);

    const dock = page.getByRole('region', { name: 'Questions' });
    await dock.getByRole('button', { name: 'Skip', exact: true }).click();
    await expect(summaryOf(page, 'Skipped')).toBeVisible();
    expect(await severeIn('light')).toEqual([]);
    expect(await severeIn('dark')).toEqual([]);
  });
});
