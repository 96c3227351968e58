import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect } from './fixtures.ts';
import { newSession } from './sessions.ts';

type OpenApp = (page: Page, path?: string) => Promise<void>;

/** Types a message into the composer and sends it with Enter. */
export async function send(page: Page, text: string) {
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill(text);
  await message.press('Enter');
}

export const dockOf = (page: Page) => page.getByRole('region', { name: 'Questions' });
export const logOf = (page: Page) => page.getByRole('log', { name: 'Conversation' });
export const summaryOf = (page: Page, outcome: string) => logOf(page).getByRole('group', { name: `Question ${outcome.toLowerCase()}`, exact: true });

/** A screenshot of the page (or of one part of it), attached to the test's report. */
export async function shoot(page: Page, testInfo: TestInfo, name: string, target?: Locator) {
  const path = testInfo.outputPath(`${name}.png`);
  await (target ?? page).screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Opens a new session and asks the demo agent for its two-question deploy prompt. */
export async function askDeploy(page: Page, openApp: OpenApp, message = 'deploy') {
  await openApp(page);
  await newSession(page);
  await send(page, message);
  await expect(dockOf(page)).toBeVisible();
  return dockOf(page);
}

/** Whether who asks shows whole: its name is not cut to an ellipsis (U12's header keeps "Asked by <name>" readable). */
export async function askerShowsWhole(dock: Locator) {
  return dock.getByText('Asked by', { exact: true }).evaluate((label) => {
    const name = label.parentElement!;
    return name.scrollWidth <= name.clientWidth;
  });
}
