import type { Locator } from '@playwright/test';
import { connect } from '../src/agent/sdk.ts';
import { LUNCH_QUESTIONS } from '../src/agent/demo-agent.ts';
import { expect, test } from './fixtures.ts';
import { seriousAxeViolations } from './axe.ts';
import { askerShowsWhole, askDeploy, dockOf, logOf, send, shoot, summaryOf } from './dock.ts';
import { askLunch } from './lunch.ts';
import { newSession } from './sessions.ts';

// U7, U12: the dock and its header at 390 px and 1280 px, and axe on the narrow and the wide dock.
test.describe('question dock', () => {
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
