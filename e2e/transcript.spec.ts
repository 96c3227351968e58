import type { Locator, Page } from '@playwright/test';
import { connect, type Agent } from '../src/agent/sdk.ts';
import { createNodeClient } from '../src/client/node.ts';
import { expect, test } from './fixtures.ts';

const logOf = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const said = (log: Locator, n: number) => log.getByRole('article').filter({ hasText: new RegExp(`^Agent.*Line ${n}\\.$`) });

/** A session holding `count` agent messages "Line 1." .. "Line N.", said in one run (the demo agent answers only user messages). */
async function seedSession(gateway: { url: string; operatorToken: string }, agent: Agent, count: number): Promise<string> {
  const operator = createNodeClient({ url: gateway.url, token: gateway.operatorToken, client: { name: 'e2e-seed', mode: 'cli' } });
  await operator.start();
  const { session } = await operator.request('sessions.create', { title: 'A long conversation' });
  operator.close();
  const runId = await agent.startRun(session.key);
  for (let n = 1; n <= count; n++) await agent.say(runId, `Line ${n}.`);
  await agent.endRun(runId, 'end_turn');
  return session.key;
}

test.describe('long conversations', () => {
  test('[C3][C5] a long conversation keeps a window of rows, keeps its place when paging back, and follows new messages only at the end', async ({
    page,
    openApp,
    gateway,
  }) => {
    const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'e2e-long-talk' });
    try {
      const key = await seedSession(gateway, agent, 260);
      await openApp(page, `/s/${key}`);
      const log = logOf(page);

      // Opens at the latest message.
      await expect(said(log, 260)).toBeInViewport();

      // Paging back keeps the oldest message shown where it was, also once the log is long enough to render only a window.
      let anchor = said(log, 211);
      for (let oldest = 211; oldest > 1; oldest -= 50) {
        // The reader turns the wheel up to the top (a move of theirs, not the page's).
        await log.evaluate((el) => {
          el.dispatchEvent(new WheelEvent('wheel', { bubbles: true, deltaY: -el.scrollTop }));
          el.scrollTop = 0;
        });
        anchor = said(log, oldest);
        await expect(anchor).toBeInViewport();
        await log.getByRole('button', { name: 'Load earlier' }).click();
        await expect(log.getByRole('button', { name: 'Loading…' })).toHaveCount(0);
        await expect(anchor).toBeInViewport();
      }
      await expect(log.getByRole('button', { name: 'Load earlier' })).toHaveCount(0);
      expect(await log.getByRole('article').count()).toBeLessThan(150);

      // Scrolled up, a new message waits below without moving the view.
      const runId = await agent.startRun(key);
      await agent.say(runId, 'Line 261.');
      await expect(said(log, 261)).toHaveCount(0);
      await expect(anchor).toBeInViewport();

      // At the end, new messages come into view.
      await log.focus();
      await page.keyboard.press('End');
      await expect(said(log, 261)).toBeInViewport();
      await agent.say(runId, 'Line 262.');
      await expect(said(log, 262)).toBeInViewport();
      await agent.endRun(runId, 'end_turn');

      // Home reaches the very first message through the window.
      await page.keyboard.press('Home');
      await expect(said(log, 1)).toBeInViewport();
    } finally {
      agent.close();
    }
  });
});
