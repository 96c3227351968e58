/** U19: one search box over sessions, messages and questions, in a real Chromium against the real gateway. */
import { connect } from '../src/agent/sdk.ts';
import { seriousAxeViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { newSession } from './sessions.ts';

test.describe('search', () => {
  test('[U19][U12] "/" focuses the box; results are grouped by session with the match marked; a result opens its session', async ({ page, openApp, gateway }) => {
    await openApp(page);
    // Two sessions with a word in common, and one question answered in the first.
    const first = await newSession(page);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('quokka release notes');
    await message.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('quokka release notes');
    await newSession(page);
    await message.fill('the quokka deploy checklist');
    await message.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('the quokka deploy checklist');
    const firstKey = decodeURIComponent(new URL(first).pathname.split('/').pop()!);
    const agent = await connect({ url: gateway.url.replace(/^http/, 'ws') + '/ws', token: gateway.agentToken, name: 'search-spec' });
    try {
      await agent.client.request('question.request', {
        sessionKey: firstKey,
        mode: 'async',
        questions: [{ id: 'zone', header: 'Zone', question: 'Which quokka enclosure?', options: [{ label: 'North' }, { label: 'South' }] }],
      });
    } finally {
      agent.close();
    }

    await page.getByRole('log', { name: 'Conversation' }).click();
    await page.keyboard.press('/');
    const box = page.getByRole('searchbox', { name: 'Search' });
    await expect(box).toBeFocused();
    await page.keyboard.type('quok');
    const results = page.getByRole('region', { name: 'Search results' });
    await expect(results.getByRole('heading', { name: 'quokka release notes' })).toBeVisible();
    await expect(results.getByRole('heading', { name: 'the quokka deploy checklist' })).toBeVisible();
    await expect(results.getByRole('link', { name: /Which quokka enclosure\?/ })).toBeVisible();
    await expect(results.locator('mark').first()).toHaveText('quok');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // More words narrow it; a result opens its session and closes the results.
    await box.fill('quokka deploy');
    await expect(results.getByRole('heading')).toHaveText(['the quokka deploy checklist']);
    await box.fill('release');
    await results.getByRole('link', { name: /quokka release notes/ }).first().click();
    await expect(page).toHaveURL(first);
    await expect(page.getByRole('region', { name: 'Search results' })).toHaveCount(0);

    // Nothing found says so; Esc clears the box.
    await page.keyboard.press('/');
    await page.keyboard.type('platypus');
    await expect(page.getByRole('region', { name: 'Search results' })).toContainText('No matches for “platypus”.');
    await page.keyboard.press('Escape');
    await expect(box).toHaveValue('');
  });

  test('[U19][U3] "/" typed in the composer stays text', async ({ page, openApp }) => {
    await openApp(page);
    await newSession(page);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.click();
    await page.keyboard.type('a/b');
    await expect(message).toHaveValue('a/b');
    await expect(page.getByRole('searchbox', { name: 'Search' })).not.toBeFocused();
  });
});
