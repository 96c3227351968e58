import type { Page } from '@playwright/test';
import type { GatewayClient } from '../src/client/client.ts';
import { createNodeClient } from '../src/client/node.ts';
import { expect, test, type GatewayFixture } from './fixtures.ts';
import { seriousAxeViolations } from './axe.ts';
import { newSession } from './sessions.ts';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Sessions' });
const dockOf = (page: Page) => page.getByRole('region', { name: 'Questions' });
const inboxLink = (page: Page) => nav(page).getByRole('link', { name: /^Inbox/ });

/** An agent connection of its own that asks without a session, as an SDK script may (A3, U15). */
async function sessionlessAsker(gateway: GatewayFixture): Promise<GatewayClient> {
  const client = createNodeClient({ url: gateway.url, token: gateway.agentToken, client: { name: 'e2e inbox script', mode: 'agent' } });
  await client.start();
  return client;
}

const release = (id: string) => ({
  id,
  questions: [{ id: 'release', header: 'Release', question: 'Ship the nightly build?', options: [{ label: 'Ship it' }, { label: 'Hold' }] }],
});

test.describe('the Inbox', () => {
  test('[U15] a sessionless question docks only in the Inbox, counted on its link, and keeps its summary there', async ({ page, openApp, gateway }) => {
    const asker = await sessionlessAsker(gateway);
    try {
      await openApp(page);
      await newSession(page);
      await expect(inboxLink(page)).toBeVisible();
      // The Inbox comes first in the Sessions list.
      await expect(nav(page).getByRole('link').first()).toHaveAccessibleName(/^Inbox/);

      const { id } = await asker.request('question.request', release('inbox-e2e-1'));
      await expect(inboxLink(page)).toHaveAccessibleName('Inbox 1 question pending');
      // Never in an unrelated session's dock.
      await expect(dockOf(page).getByRole('radio', { name: 'Ship it' })).toHaveCount(0);

      await inboxLink(page).click();
      await expect(page).toHaveURL(/\/inbox$/);
      await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
      await expect(inboxLink(page)).toHaveAttribute('aria-current', 'page');
      const dock = dockOf(page);
      await dock.getByRole('radio', { name: 'Ship it' }).click();
      await dock.getByRole('button', { name: 'Submit', exact: true }).click();

      const history = page.getByRole('log', { name: 'Conversation' });
      await expect(history.getByRole('group', { name: 'Question answered', exact: true })).toContainText('Ship it');
      await expect(inboxLink(page)).toHaveAccessibleName('Inbox');
      const { question } = await asker.request('question.get', { id });
      expect(question).toMatchObject({ status: 'answered', answers: { release: ['Ship it'] } });

      // The summary is still there after a reload.
      await page.reload();
      await expect(page.getByRole('log', { name: 'Conversation' }).getByRole('group', { name: 'Question answered', exact: true })).toContainText('Ship it');

      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      asker.close();
    }
  });

  test('[U15] an untitled session takes its first message as title, and can be renamed', async ({ page, openApp }) => {
    await openApp(page);
    await newSession(page);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Plan the spring release');
    await box.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Plan the spring release');
    await expect(nav(page).getByRole('link', { name: /Plan the spring release/ })).toBeVisible();

    await page.getByRole('button', { name: 'Rename session' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename session' });
    await dialog.getByRole('textbox', { name: 'Session title' }).fill('Spring release');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Spring release');
    await expect(nav(page).getByRole('link', { name: /Spring release/ })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Spring release');
  });

  test('[U16] a question with a url shows "Open link" (new tab, noopener noreferrer) with a hint, in the dock and on the link page', async ({ page, openApp, gateway }) => {
    const asker = await sessionlessAsker(gateway);
    try {
      const url = 'https://example.com/pull/42';
      const ask = release('inbox-e2e-url');
      const { id } = await asker.request('question.request', { ...ask, questions: [{ ...ask.questions[0], url }] });
      for (const path of ['/inbox', `/q/${id}`]) {
        await openApp(page, path);
        const link = page.getByRole('button', { name: 'Open link' });
        await expect(link).toBeVisible();
        await expect(link).toHaveAttribute('href', url);
        await expect(link).toHaveAttribute('target', '_blank');
        await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
        await expect(link).toHaveAccessibleDescription(/come back here to answer/);
      }
      await asker.request('question.resolve', { id, cancel: true, reason: 'done' });
    } finally {
      asker.close();
    }
  });
});
