import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { newSession } from './sessions.ts';

// Reference screenshots of the key states, in both themes and at both widths: a change that moves what people see shows here.
// What changes from run to run (times, countdowns, the other tests' sessions) is masked.
const dockOf = (page: Page) => page.getByRole('region', { name: 'Questions' });
const masks = (page: Page) => [
  // Times outside the sessions list (the list is masked whole: its rows come from the other tests).
  page.locator('time:not(nav time)'),
  page.getByRole('timer'),
  page.getByRole('navigation', { name: 'Sessions' }),
];

async function prepare(page: Page, colorScheme: 'light' | 'dark') {
  // Reduced motion: no arrival slide or cross-fade is caught half-way.
  await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
  // The notification prompt depends on the browser profile; the shots are of the product, not of that choice.
  await page.addInitScript(() => Object.defineProperty(Notification, 'permission', { get: () => 'denied' }));
}

async function send(page: Page, text: string) {
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill(text);
  await message.press('Enter');
}

for (const colorScheme of ['light', 'dark'] as const) {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    test.describe(`[U1][U2][U7] key states, ${colorScheme} at ${width} px`, () => {
      test.use({ viewport: { width, height } });

      test('the dock on question 2 with a draft, collapsed, then the answered summary', async ({ page, openApp }) => {
        await prepare(page, colorScheme);
        await openApp(page);
        await newSession(page);
        await send(page, 'deploy');
        const dock = dockOf(page);
        await expect(dock).toBeVisible();
        await dock.getByRole('radio', { name: 'Production' }).click();
        if (width >= 640) await dock.getByRole('button', { name: 'Next', exact: true }).click();
        await dock.getByRole('checkbox', { name: 'Slack' }).click();
        await dock.getByRole('textbox', { name: 'Other' }).last().fill('The release channel');
        await page.mouse.move(0, 0);
        await expect(page).toHaveScreenshot(`dock-draft-${colorScheme}-${width}.png`, { mask: masks(page), fullPage: false });

        await page.keyboard.press('Escape');
        await expect(dock.getByRole('button', { name: 'Expand questions' })).toBeVisible();
        await expect(page).toHaveScreenshot(`collapsed-${colorScheme}-${width}.png`, { mask: masks(page) });

        await dock.getByRole('button', { name: 'Expand questions' }).click();
        await dock.getByRole('button', { name: 'Submit', exact: true }).click();
        await expect(page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Agent' }).last()).toContainText('Got:');
        await page.mouse.move(0, 0);
        await expect(page).toHaveScreenshot(`answered-${colorScheme}-${width}.png`, { mask: masks(page) });
      });
    });
  }
}
