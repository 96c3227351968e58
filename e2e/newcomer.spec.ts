import type { Page } from '@playwright/test';
import { seriousAxeViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { newSession } from './sessions.ts';

/** Issue 53: what a newcomer meets first. Shots for review go outside the repository. */
const SHOTS = process.env.ASKDOCK_SHOTS_DIR;
const VIEWS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

async function shoot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

const banner = (page: Page) => page.getByRole('banner');

test.describe('issue 53: the first screens', () => {
  for (const { width, height } of VIEWS) {
    test(`[U15] the Inbox's heading sits at the top of the page at ${width} px`, async ({ page, openApp }) => {
      await page.setViewportSize({ width, height });
      await openApp(page, '/inbox');
      const heading = page.getByRole('heading', { name: 'Inbox', level: 1 });
      await expect(heading).toBeVisible();
      // Right under the top bar (phones: in it), not pushed down by the room the history leaves.
      const bar = (await banner(page).boundingBox())!;
      const box = (await heading.boundingBox())!;
      expect(box.y).toBeLessThanOrEqual(bar.y + bar.height + 8);
      // An empty Inbox says so right under its heading, not at the foot of the page with the room above it empty.
      // (Earlier tests of a run share this gateway and may have left ended questions in its Inbox: then there is no empty state.)
      const history = page.getByRole('log', { name: 'Conversation' });
      const note = history.getByText(/^No question has ended here yet/);
      await expect(note.or(history.getByRole('group', { name: /^Question / })).first()).toBeVisible();
      if ((await note.count()) > 0) {
        const noteBox = (await note.boundingBox())!;
        const headingBottom = Math.max(box.y + box.height, bar.y + bar.height);
        expect(noteBox.y - headingBottom).toBeLessThanOrEqual(64);
      }
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await shoot(page, `inbox-${width}-${scheme}`);
      }
    });

    test(`[U18] an admin reaches "Connect an agent" from the top bar at any time, at ${width} px`, async ({ page, openApp }) => {
      await page.setViewportSize({ width, height });
      // The demo agent is connected here: the home page's empty state would not offer it.
      await openApp(page);
      const open = banner(page).getByRole('button', { name: 'Connect an agent' });
      await open.click();
      const dialog = page.getByRole('dialog', { name: 'Connect an agent' });
      // This gateway's only agent identity is the demo agent's: its token is not offered to integrations (A6).
      await expect(dialog).toContainText("The only agent identity here is the demo agent's");
      await expect(dialog.getByRole('button', { name: 'Show token' })).toHaveCount(0);
      await expect(dialog).toContainText('npm i -g .');
      const hook = dialog.getByRole('region', { name: 'Hook' });
      await expect(hook).toContainText('"PermissionRequest"');
      await expect(hook).toContainText('"timeout": 150');
      await expect(hook).not.toContainText('PreToolUse');
      if (width === 1280) {
        // The token and the first snippet fit without scrolling.
        const first = dialog.getByRole('region', { name: 'Claude Code' });
        const box = (await first.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(height);
      }
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await shoot(page, `connect-${width}-${scheme}`);
      }
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(open).toBeFocused();
    });

    test(`[U13][U17] one notification menu; with no push service it says so in words, at ${width} px`, async ({ page, openApp }) => {
      await page.setViewportSize({ width, height });
      // A browser whose push service refuses, as Chromium does in a private window.
      await page.addInitScript(() => {
        PushManager.prototype.subscribe = () => Promise.reject(new DOMException('Registration failed - permission denied', 'NotAllowedError'));
      });
      await page.context().grantPermissions(['notifications']);
      await openApp(page);
      const bell = banner(page).getByRole('button', { name: 'Notifications' });
      await bell.click();
      const menu = page.getByRole('menu');
      await expect(menu.getByRole('menuitemcheckbox', { name: /^Notify me in this tab/ })).toHaveAttribute('aria-checked', 'true');
      const device = menu.getByRole('menuitemcheckbox', { name: /^Notify me on this device/ });
      await expect(device).toHaveAttribute('aria-checked', 'false');
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await shoot(page, `notify-menu-${width}-${scheme}`);
      }
      await device.click();
      // The menu closes on the outcome, and its note says what happened in words, focus back on the bell.
      await expect(page.getByRole('status').filter({ hasText: 'private (incognito) windows' })).toBeVisible();
      await expect(page.getByText('Registration failed')).toHaveCount(0);
      await expect(bell).toBeFocused();
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await shoot(page, `notify-note-${width}-${scheme}`);
      }
      await bell.click();
      await expect(device).toHaveAttribute('aria-checked', 'false');
    });
  }
});

test.describe('issue 53: the dock and the composer', () => {
  const dockOf = (page: Page) => page.getByRole('region', { name: 'Questions' });
  const cardOf = (radio: ReturnType<Page['getByRole']>) => radio.locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " qd-option ")][1]');
  const look = (card: ReturnType<Page['locator']>) =>
    card.evaluate((el) => {
      const s = getComputedStyle(el);
      return { border: s.borderTopColor, background: s.backgroundColor };
    });

  test('[U12] the focused option does not look selected: focus is a ring, selection the card itself', async ({ page, openApp }) => {
    await openApp(page);
    await newSession(page);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('deploy');
    await message.press('Enter');
    const first = dockOf(page).getByRole('radio', { name: 'Staging (Recommended)' });
    const second = dockOf(page).getByRole('radio').nth(1);
    await expect(first).toBeFocused();
    await page.mouse.move(0, 0);
    // Focused, not chosen: its card looks like any other card that is not chosen.
    expect(await look(cardOf(first))).toEqual(await look(cardOf(second)));
    await page.keyboard.press('Space');
    await expect(first).toBeChecked();
    expect(await look(cardOf(first))).not.toEqual(await look(cardOf(second)));
  });
});

test.describe('issue 53: on a touch phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('[U12] the composer has no keyboard hint on a touch screen', async ({ page, openApp }) => {
    await openApp(page);
    await newSession(page);
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
    await expect(page.getByText('sends,', { exact: false })).toBeHidden();
  });
});

test.describe('issue 53: the phone header', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('[U12] on a phone the top bar holds few controls, each with a name', async ({ page, openApp }) => {
    await openApp(page);
    await newSession(page);
    const bar = page.getByRole('banner');
    await expect(bar.getByRole('button', { name: 'Notifications' })).toBeVisible();
    const controls = bar.locator('a:visible, button:visible');
    const names = await controls.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''));
    expect(names.every((n) => n.length > 0), names.join(' | ')).toBe(true);
    expect(names.length, names.join(' | ')).toBeLessThanOrEqual(6);
    // One dot, the session's agent, with its words on hover and for screen readers; "Connected" is no second dot.
    await expect(bar.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
    const dots = await bar.locator('span:visible').evaluateAll((els) => els.filter((el) => el.getBoundingClientRect().width <= 10 && el.getBoundingClientRect().width > 2 && getComputedStyle(el).borderRadius !== '0px').length);
    expect(dots).toBe(1);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await shoot(page, `phone-header-${scheme}`);
    }
  });
});
