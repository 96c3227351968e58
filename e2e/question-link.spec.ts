import type { Locator, Page } from '@playwright/test';
import { connect, type Agent } from '../src/agent/sdk.ts';
import { DEPLOY_QUESTIONS } from '../src/agent/demo-agent.ts';
import type { AskUserResult } from '../src/agent/ask-user.ts';
import { createNodeClient } from '../src/client/node.ts';
import type { GatewayClient } from '../src/client/client.ts';
import { expect, test, type GatewayFixture } from './fixtures.ts';
import { seriousAxeViolations } from './axe.ts';

type Asked = { id: string; result: Promise<AskUserResult>; agent: Agent; operator: GatewayClient; abort: AbortController };

let counter = 0;

/**
 * An SDK agent asks the deploy prompt without a session (a link is how such a question is reached), so no session's
 * conversation is touched by it; the operator client checks what the gateway holds.
 */
async function ask(gateway: GatewayFixture): Promise<Asked> {
  const operator = createNodeClient({ url: gateway.url, token: gateway.operatorToken, client: { name: 'e2e-link-operator', mode: 'cli' } });
  await operator.start();
  const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'e2e-link-agent' });
  const id = `q-link-${Date.now().toString(36)}-${++counter}`;
  const abort = new AbortController();
  const result = agent.askUser({ questions: DEPLOY_QUESTIONS }, { id, signal: abort.signal });
  result.catch(() => undefined);
  await expect.poll(async () => (await operator.request('question.get', { id }).catch(() => null))?.question.status).toBe('pending');
  return { id, result, agent, operator, abort };
}

/** Withdraws the question if a test left it pending, so no other test's dock ever shows it. */
function done(asked: Asked) {
  asked.abort.abort();
  asked.agent.close();
  asked.operator.close();
}

const environment = (within: Page | Locator) => within.getByRole('group', { name: 'Environment', exact: true });
const notify = (within: Page | Locator) => within.getByRole('group', { name: 'Notify', exact: true });

test.describe('question link page', () => {
  test('[U11][Q1][U12] answers one question alone on its own page, with surface "link", and stays answered', async ({ page, openApp, gateway }, testInfo) => {
    const asked = await ask(gateway);
    try {
      await openApp(page, `/q/${asked.id}`);
      await expect(page.getByRole('heading', { name: 'Environment · Notify' })).toBeVisible();
      await expect(page.getByRole('timer')).toHaveText(/^1[45]:\d\d left$/);
      await environment(page).getByRole('radio', { name: 'Production' }).click();
      await notify(page).getByRole('checkbox', { name: 'Email' }).click();
      await notify(page).getByRole('textbox', { name: 'Other' }).fill('the ops channel');

      expect(await seriousAxeViolations(page)).toEqual([]);
      const shot = testInfo.outputPath('question-link.png');
      await page.screenshot({ path: shot, fullPage: true });
      await testInfo.attach('question link page', { path: shot, contentType: 'image/png' });

      await page.getByRole('button', { name: 'Submit', exact: true }).click();

      await expect(page.getByRole('heading', { name: 'Answer sent' })).toBeVisible();
      expect(await asked.result).toMatchObject({ status: 'answered', answers: { answers: { env: ['Production'], notify: ['Email', 'the ops channel'] } } });
      const { question } = await asked.operator.request('question.get', { id: asked.id });
      expect(question.resolvedBy?.surface).toBe('link');

      await page.reload();
      await expect(page.getByRole('heading', { name: 'Answer sent' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Question answered' })).toContainText('Email, the ops channel');
    } finally {
      done(asked);
    }
  });

  test('[U3][U11] the page takes focus on its question: number keys choose without a click', async ({ page, openApp, gateway }) => {
    const asked = await ask(gateway);
    try {
      await openApp(page, `/q/${asked.id}`);
      await expect(environment(page).getByRole('radio', { name: 'Staging (Recommended)' })).toBeFocused();
      await page.keyboard.press('2');
      await expect(environment(page).getByRole('radio', { name: 'Production' })).toBeChecked();
      await expect(environment(page).getByRole('radio', { name: 'Production' })).toBeFocused();
      // Ended here, so the Inbox of the next tests shows no leftover question.
      await page.getByRole('button', { name: 'Skip', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Skipped' })).toBeVisible();
    } finally {
      done(asked);
    }
  });

  test('[U4][U5] a missing answer is named; Skip declines the whole prompt', async ({ page, openApp, gateway }) => {
    const asked = await ask(gateway);
    try {
      await openApp(page, `/q/${asked.id}`);
      await environment(page).getByRole('radio', { name: 'Staging (Recommended)' }).click();
      await page.getByRole('button', { name: 'Submit', exact: true }).click();
      await expect(notify(page).getByRole('alert')).toHaveText('Choose at least one option or type an answer in Other.');
      await page.getByRole('button', { name: 'Skip', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Skipped' })).toBeVisible();
      expect(await asked.result).toEqual(expect.objectContaining({ status: 'no_answer', reason: 'skipped' }));
    } finally {
      done(asked);
    }
  });

  test('[U11][U6] what was typed survives a reload and a failed load; Retry loads it again', async ({ page, openApp, gateway }) => {
    const asked = await ask(gateway);
    let failLoads = false;
    // The gateway refusing question.get while it restarts, at the socket, as the page would meet it.
    await page.routeWebSocket(/\/ws$/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        const frame = typeof message === 'string' ? (JSON.parse(message) as { type?: string; id?: string; method?: string }) : null;
        if (failLoads && frame?.type === 'req' && frame.method === 'question.get') {
          ws.send(JSON.stringify({ type: 'res', id: frame.id, ok: false, error: { code: 'UNAVAILABLE', message: 'the gateway is restarting', retryable: true } }));
          return;
        }
        server.send(message);
      });
    });
    try {
      await openApp(page, `/q/${asked.id}`);
      await environment(page).getByRole('textbox', { name: 'Other' }).fill('Production, but only after 6 pm');
      await notify(page).getByRole('checkbox', { name: 'Slack' }).click();

      await page.reload();
      await expect(environment(page).getByRole('textbox', { name: 'Other' })).toHaveValue('Production, but only after 6 pm');
      await expect(environment(page).getByRole('radio', { name: 'Production' })).not.toBeChecked();
      await expect(notify(page).getByRole('checkbox', { name: 'Slack' })).toBeChecked();

      failLoads = true;
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Could not load the question' })).toBeVisible();
      await expect(page.getByRole('alert')).toContainText('the gateway is restarting');
      failLoads = false;
      await page.getByRole('button', { name: 'Retry' }).click();
      await expect(environment(page).getByRole('textbox', { name: 'Other' })).toHaveValue('Production, but only after 6 pm');
      await expect(notify(page).getByRole('checkbox', { name: 'Slack' })).toBeChecked();

      await page.getByRole('button', { name: 'Submit', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Answer sent' })).toBeVisible();
      expect(await asked.result).toMatchObject({ answers: { answers: { env: ['Production, but only after 6 pm'], notify: ['Slack'] } } });
    } finally {
      done(asked);
    }
  });

  test('[U6][U11][Q5] the link page and the dock share one draft: typed in either, it shows in the other and is sent once', async ({ page, openApp, gateway }) => {
    const asked = await ask(gateway);
    try {
      await openApp(page, `/q/${asked.id}`);
      await environment(page).getByRole('textbox', { name: 'Other' }).fill('Production, after the freeze');

      // A sessionless question docks in the Inbox (U15).
      await openApp(page, '/inbox');
      const dock = page.getByRole('region', { name: 'Questions' });
      await expect(environment(dock).getByRole('textbox', { name: 'Other' })).toHaveValue('Production, after the freeze');
      await expect(environment(dock).getByRole('radio', { name: 'Production' })).not.toBeChecked();
      await dock.getByRole('button', { name: 'Next', exact: true }).click();
      await notify(dock).getByRole('checkbox', { name: 'Pager' }).click();
      await expect(notify(dock).getByRole('checkbox', { name: 'Pager' })).toBeChecked();

      await openApp(page, `/q/${asked.id}`);
      await expect(environment(page).getByRole('textbox', { name: 'Other' })).toHaveValue('Production, after the freeze');
      await expect(notify(page).getByRole('checkbox', { name: 'Pager' })).toBeChecked();
      await page.getByRole('button', { name: 'Submit', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Answer sent' })).toBeVisible();
      expect(await asked.result).toMatchObject({ answers: { answers: { env: ['Production, after the freeze'], notify: ['Pager'] } } });
    } finally {
      done(asked);
    }
  });

  test('[U11][U7] a question answered elsewhere says "Question no longer available" with its outcome, and stays so', async ({ page, context, openApp, gateway }) => {
    const asked = await ask(gateway);
    try {
      await openApp(page, `/q/${asked.id}`);
      await environment(page).getByRole('textbox', { name: 'Other' }).fill('a draft that will never be sent');
      await asked.operator.request('question.resolve', { id: asked.id, answers: { env: ['Staging (Recommended)'], notify: ['Pager'] }, surface: 'cli' });

      const heading = page.getByRole('heading', { name: 'Question no longer available' });
      await expect(heading).toBeVisible();
      const summary = page.getByRole('region', { name: 'Question answered elsewhere' });
      await expect(summary).toContainText('Where should I deploy?');
      await expect(summary).toContainText('Pager');
      await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0);

      await context.setOffline(true);
      await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Offline');
      await context.setOffline(false);
      await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
      await expect(heading).toBeVisible();
      await page.reload();
      await expect(heading).toBeVisible();
      await expect(summary).toContainText('Pager');
    } finally {
      done(asked);
    }
  });

  test('[U11][T5] a question withdrawn by its agent while the page is open turns "Cancelled"', async ({ page, openApp, gateway }) => {
    const asked = await ask(gateway);
    try {
      await openApp(page, `/q/${asked.id}`);
      await expect(environment(page)).toBeVisible();
      asked.abort.abort();
      await expect(page.getByRole('heading', { name: 'Question no longer available' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Question cancelled' })).toContainText('Where should I deploy?');
    } finally {
      done(asked);
    }
  });
});
