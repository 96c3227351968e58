import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { connect } from '../src/agent/sdk.ts';
import { DEPLOY_QUESTIONS } from '../src/agent/demo-agent.ts';
import { createNodeClient } from '../src/client/node.ts';
import { startGateway } from '../src/gateway/gateway.ts';
import { silentLogger } from '../src/gateway/infra/logger.ts';
import { DEMO_AGENT_CLIENT_NAME } from '../src/protocol/index.ts';
import { seriousAxeViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { newSession } from './sessions.ts';

const UI_DIR = fileURLToPath(new URL('../dist', import.meta.url));

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

const VIEWS = [
  ['light', 1280, 800],
  ['dark', 1280, 800],
  ['light', 390, 844],
  ['dark', 390, 844],
] as const;

/** Runs `shoot` once in each theme at each width, on the page as it is: the states are made once, then looked at four ways. */
async function everyView(page: Page, shoot: (suffix: string) => Promise<void>) {
  for (const [colorScheme, width, height] of VIEWS) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.setViewportSize({ width, height });
    await page.mouse.move(0, 0);
    // The newest messages in view, as after any new message: a resize alone does not move the conversation.
    const log = page.getByRole('log', { name: 'Conversation' });
    if (await log.isVisible()) await log.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await shoot(`${colorScheme}-${width}`);
  }
}

/** The reference shot of each view, and axe clean in each: the looks and the contrast are checked on the same pixels. */
async function shootEveryView(page: Page, name: string, options: { fullPage?: boolean; mask?: ReturnType<typeof masks> } = {}) {
  // The header's notification menu loads just after the first screen: the shots wait for them, so they never differ by it.
  await expect(page.getByRole('banner').getByRole('button', { name: 'Notifications' })).toBeVisible();
  await everyView(page, async (view) => {
    await expect(page).toHaveScreenshot(`${name}-${view}.png`, { mask: masks(page), ...options });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
}

const summaryOf = (page: Page, outcome: string) =>
  page.getByRole('log', { name: 'Conversation' }).getByRole('group', { name: `Question ${outcome.toLowerCase()}`, exact: true });

test.describe('[U5][U7][U8][U9] each outcome in the transcript, both themes, 1280 and 390 px', () => {
  test('answered, answered elsewhere, skipped, expired, cancelled, no longer pending, and an async answer', async ({ page, openApp, gateway }) => {
    // One question has to run out its shortest timeout (30 s, Q3) while the others are made.
    test.setTimeout(240_000);
    await prepare(page, 'light');
    await openApp(page);
    const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'e2e-visual-agent' });
    const operator = createNodeClient({ url: gateway.url, token: gateway.operatorToken, client: { name: 'e2e-visual-operator', mode: 'cli' } });
    await operator.start();
    try {
      const expiring = await newSession(page);
      await send(page, 'deploy timeout=30');
      await expect(dockOf(page)).toBeVisible();

      await newSession(page);
      const key = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
      const dock = dockOf(page);
      await send(page, 'deploy');
      await dock.getByRole('button', { name: 'Skip', exact: true }).click();
      await expect(summaryOf(page, 'Skipped')).toBeVisible();

      const withdrawn = new AbortController();
      agent.askUser({ questions: DEPLOY_QUESTIONS }, { sessionKey: key, id: `q-visual-tea-${Date.now()}`, signal: withdrawn.signal }).catch(() => undefined);
      await expect(dock.getByRole('radio', { name: 'Production' })).toBeVisible();
      withdrawn.abort();
      await expect(summaryOf(page, 'Cancelled')).toBeVisible();

      const elsewhere = `q-visual-elsewhere-${Date.now()}`;
      const answeredElsewhere = agent.askUser({ questions: DEPLOY_QUESTIONS }, { sessionKey: key, id: elsewhere });
      await expect(dock.getByRole('radio', { name: 'Production' })).toBeVisible();
      await operator.request('question.resolve', { id: elsewhere, answers: { env: ['Production'], notify: ['Pager'] }, surface: 'cli' });
      await answeredElsewhere;
      await expect(summaryOf(page, 'Answered elsewhere')).toBeVisible();

      await send(page, 'deploy');
      await dock.getByRole('radio', { name: 'Staging (Recommended)' }).click();
      if ((page.viewportSize()?.width ?? 0) >= 640) await dock.getByRole('button', { name: 'Next', exact: true }).click();
      await dock.getByRole('checkbox', { name: 'Email' }).click();
      await dock.getByRole('checkbox', { name: 'Slack' }).click();
      await dock.getByRole('button', { name: 'Submit', exact: true }).click();
      await expect(summaryOf(page, 'Answered').first()).toBeVisible();

      // An async question left unanswered retires when a later run ends its turn (Q10).
      await send(page, 'async');
      await expect(dock.getByRole('radio', { name: 'Pizza (Recommended)' })).toBeVisible();
      await send(page, 'hello');
      await expect(summaryOf(page, 'No longer pending')).toBeVisible();

      await send(page, 'async lunch');
      await expect(dock.getByRole('radio', { name: 'Pizza (Recommended)' })).toBeVisible();
      await page.getByRole('textbox', { name: 'Message' }).focus();
      await shootEveryView(page, 'async-docked');

      await dock.getByRole('radio', { name: 'Sushi' }).click();
      await dock.getByRole('button', { name: 'Submit', exact: true }).click();
      const log = page.getByRole('log', { name: 'Conversation' });
      await expect(log.getByRole('article', { name: 'Agent' }).last()).toContainText('Thanks');
      await expect(summaryOf(page, 'Answered').last().getByRole('status')).toHaveText('Sent');
      await shootEveryView(page, 'async-answer');

      await page.goto(expiring);
      await expect(summaryOf(page, 'Expired')).toBeVisible({ timeout: 60_000 });
      await page.goto(`${gateway.url}/s/${encodeURIComponent(key)}`);
      await expect(summaryOf(page, 'Skipped')).toBeVisible();
      for (const [outcome, name] of [
        ['Answered', 'answered'],
        ['Answered elsewhere', 'answered-elsewhere'],
        ['Skipped', 'skipped'],
        ['Cancelled', 'cancelled'],
        ['No longer pending', 'no-longer-pending'],
      ] as const)
        await everyView(page, (view) => expect(summaryOf(page, outcome).first()).toHaveScreenshot(`outcome-${name}-${view}.png`));
      await everyView(page, async () => expect(await seriousAxeViolations(page)).toEqual([]));
      await page.goto(expiring);
      await everyView(page, (view) => expect(summaryOf(page, 'Expired')).toHaveScreenshot(`outcome-expired-${view}.png`));
    } finally {
      agent.close();
      operator.close();
    }
  });
});

test.describe('[U11] the question link page, both themes, 1280 and 390 px', () => {
  test('one centred card while pending, then its outcome', async ({ page, openApp, gateway }) => {
    await prepare(page, 'light');
    const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'e2e-visual-link' });
    const asked = new AbortController();
    try {
      const id = `q-visual-link-${Date.now()}`;
      const result = agent.askUser({ questions: DEPLOY_QUESTIONS }, { id, signal: asked.signal });
      result.catch(() => undefined);
      await expect.poll(async () => (await agent.client.request('question.get', { id }).catch(() => null))?.question.status).toBe('pending');
      await openApp(page, `/q/${id}`);
      await page.getByRole('radio', { name: 'Production' }).click();
      await page.getByRole('checkbox', { name: 'Slack' }).click();
      await shootEveryView(page, 'link-page', { fullPage: true });
      await page.getByRole('button', { name: 'Submit', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Answer sent' })).toBeVisible();
      await result;
      await shootEveryView(page, 'link-answered', { fullPage: true });
    } finally {
      asked.abort();
      agent.close();
    }
  });
});

test.describe('[U15] the empty states, both themes, 1280 and 390 px', () => {
  test('no sessions yet, then a session with no messages', async ({ page }) => {
    await prepare(page, 'light');
    // A gateway of its own: the shared one already holds the other tests' sessions.
    const dataDir = mkdtempSync(join(tmpdir(), 'askdock-e2e-empty-'));
    const gateway = await startGateway({ host: '127.0.0.1', port: 0, dbPath: join(dataDir, 'askdock.db'), uiDir: UI_DIR, log: silentLogger() });
    let demo: Awaited<ReturnType<typeof connect>> | undefined;
    try {
      const token = gateway.identities.identities.find((i) => i.role === 'operator')?.token;
      if (!token) throw new Error('the gateway created no operator identity (A1)');
      await page.goto(`${gateway.url}/?token=${encodeURIComponent(token)}`);
      // U18: without the demo agent, an admin is shown how to connect one.
      await expect(page.getByRole('heading', { name: 'Connect an agent', level: 1 })).toBeVisible();
      const agentToken = gateway.identities.identities.find((i) => i.role === 'agent')?.token;
      demo = await connect({ url: gateway.wsUrl, token: agentToken!, name: DEMO_AGENT_CLIENT_NAME });
      await page.reload();
      await expect(page.getByRole('heading', { name: 'No sessions yet', level: 1 })).toBeVisible();
      // Nothing changes from run to run on a gateway of its own: the empty sessions list is part of the shot.
      await shootEveryView(page, 'empty-sessions', { mask: [] });
      await newSession(page);
      await expect(page.getByText('No messages yet')).toBeVisible();
      // The demo agent's session: its greeting comes once the page knows the demo agent's identity (agents.connectInfo).
      await expect(page.getByText(/With the demo agent/)).toBeVisible();
      await page.getByRole('textbox', { name: 'Message' }).blur();
      await shootEveryView(page, 'empty-session');
    } finally {
      demo?.close();
      await gateway.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
