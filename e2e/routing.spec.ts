import type { Page } from '@playwright/test';
import { createNodeClient } from '../src/client/node.ts';
import { seriousAxeViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { newSession } from './sessions.ts';
import { ownGateway } from './own-gateway.ts';

const dockOf = (page: Page) => page.getByRole('region', { name: 'Questions' });
const routingOf = (page: Page) => dockOf(page).getByRole('group', { name: 'Routing' });
const sessionKeyOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
const ANA = `adk_${'a'.repeat(40)}`;
const BO = `adk_${'b'.repeat(40)}`;
const AGENT = `adk_${'c'.repeat(40)}`;

/**
 * A gateway of its own with routing: a question or a secret request goes to whoever is on call (Ana), then to ops (Bo); an approval needs two
 * of Ana and Bo. `rotation` puts more people on the schedule, each a day in turn.
 */
async function routedGateway(rotation = ['ana']) {
  return ownGateway(
    {
      identities: [
        { id: 'ana', name: 'Ana', token: ANA, role: 'operator', scopes: ['operator.admin'] },
        { id: 'bo', name: 'Bo', token: BO, role: 'operator', scopes: ['operator.questions'] },
        { id: 'agent', token: AGENT, role: 'agent', scopes: ['agent.run'] },
      ],
      routing: {
        groups: { ops: { members: ['bo'] } },
        schedules: { primary: { timezone: 'UTC', layers: [{ members: rotation, rotation: 'daily', handoff: '09:00' }] } },
        escalations: {
          team: { steps: [{ notify: ['schedule:primary'], wait: '10m' }, { notify: ['group:ops'], wait: '10m' }], exhausted: 'keep' },
          pair: { steps: [{ notify: ['identity:ana', 'identity:bo'], wait: '10m' }], exhausted: 'deny' },
        },
        routes: [
          { match: { kind: ['approval'] }, escalation: 'pair', quorum: 2 },
          { match: { kind: ['question', 'secret'] }, escalation: 'team' },
        ],
      },
    },
    AGENT,
    'routing',
  );
}

/** Ana (notifications denied) in a new session of a routed gateway of its own, closed once `run` is done. */
async function inAnasSession(page: Page, run: (g: Awaited<ReturnType<typeof routedGateway>> & { sessionKey: string }) => Promise<void>) {
  await page.addInitScript(() => Object.defineProperty(Notification, 'permission', { get: () => 'denied' }));
  const g = await routedGateway();
  try {
    await page.goto(`${g.gateway.url}/?token=${ANA}`);
    await newSession(page);
    await run({ ...g, sessionKey: sessionKeyOf(page) });
  } finally {
    await g.close();
  }
}

test.describe('[E4][E5][E9] routed questions in the Control UI', () => {
  test('[E9][E4][E5] the dock says who it waits for with a countdown, "I\'m on it" shows who is on it, a quorum shows 1 of 2 approvals, the On call page lists who is on call', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await inAnasSession(page, async ({ gateway, agent, sessionKey }) => {
      // A question: Ana is on call, so it waits for her, and moves on in about ten minutes.
      await agent.request('question.request', {
        sessionKey,
        questions: [{ id: 'env', header: 'Env', question: 'Which environment?', options: [{ label: 'Staging' }, { label: 'Production' }] }],
        timeoutMs: 3_600_000,
      });
      const row = routingOf(page);
      await expect(row).toContainText('For Ana · to ops in');
      await expect(row.getByRole('timer')).toHaveText(/^in (10:00|9:\d\d)$/);
      await row.getByRole('button', { name: "I'm on it" }).click();
      await expect(row).toContainText('Ana is on it');
      await expect(row.getByRole('button', { name: "I'm on it" })).toHaveCount(0);

      // The On call page: the schedule's person now, and the open routed question with who is on it.
      await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: 'On call' }).click();
      await expect(page).toHaveURL(/\/on-call$/);
      await expect(page.getByRole('heading', { level: 1, name: 'On call' })).toBeVisible();
      const schedules = page.getByRole('region', { name: 'Schedules' });
      // People by display name, with the identity id beside it.
      await expect(schedules.getByRole('row', { name: /primary/ })).toContainText('Ana (ana)');
      const open = page.getByRole('region', { name: 'Open routed requests' });
      await expect(open.getByRole('link', { name: 'Env' })).toBeVisible();
      await expect(open.getByRole('row', { name: /Env/ })).toContainText('Ana is on it');
      expect(await seriousAxeViolations(page)).toEqual([]);

      // Ana answers it; then a two-person approval: her Allow leaves it waiting for one more.
      await page.goBack();
      const dock = dockOf(page);
      await dock.getByRole('radio', { name: 'Staging' }).check();
      await page.keyboard.press('Control+Enter');
      await expect(dock).toHaveCount(0);
      const approval = await agent.request('question.request', { sessionKey, approval: { tool: 'Bash', input: { command: 'git push origin main' } }, timeoutMs: 3_600_000 });
      await expect(dock.getByRole('radio', { name: 'Allow', exact: true })).toBeVisible();
      await expect(routingOf(page)).toContainText('0 of 2 approvals');
      await dock.getByRole('radio', { name: 'Allow', exact: true }).check();
      await page.keyboard.press('Control+Enter');
      await expect(page.getByText('1 of 2 approvals (Ana)')).toBeVisible();

      // E7/E5: Bo's Allow from his terminal completes it; the summary says who answered and where, the Allow and both approvers apart.
      const bo = createNodeClient({ url: gateway.wsUrl, token: BO, client: { name: 'e2e routing bo', mode: 'tui' } });
      await bo.start();
      try {
        await bo.request('question.resolve', { id: approval.id, answers: { approval: ['Allow'] }, surface: 'tui' });
      } finally {
        bo.close();
      }
      const summary = page.getByRole('log', { name: 'Conversation' }).getByRole('group').filter({ hasText: 'git push origin main' });
      await expect(summary.getByText('Answered by Bo · TUI', { exact: true })).toBeVisible();
      await expect(summary.getByText('Allow', { exact: true })).toBeVisible();
      await expect(summary.getByText('Approvals: Ana, Bo', { exact: true })).toBeVisible();
    });
  });

  test('[E9][K1] a routed secret request: the dock says who it waits for and who is next as for a question, and the On call page lists it until it is provided', async ({ page }) => {
    await inAnasSession(page, async ({ agent, sessionKey }) => {
      await agent.request('secret.request', { name: 'DEPLOY_KEY', description: 'To push the release', sessionKey, timeoutMs: 3_600_000 });
      const row = routingOf(page);
      await expect(row).toContainText('For Ana · to ops in');
      await expect(row.getByRole('timer')).toHaveText(/^in (10:00|9:\d\d)$/);

      await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: 'On call' }).click();
      const open = page.getByRole('region', { name: 'Open routed requests' });
      const secret = open.getByRole('row', { name: /DEPLOY_KEY/ });
      await expect(secret).toContainText('Secret DEPLOY_KEY');
      await expect(secret.getByRole('timer')).toHaveText(/^in (10:00|9:\d\d)$/);
      expect(await seriousAxeViolations(page)).toEqual([]);

      // Back in its session, Ana provides it; the On call page has nothing waiting then.
      await secret.getByRole('link', { name: 'DEPLOY_KEY' }).click();
      await expect(page).toHaveURL(new RegExp(`/s/${encodeURIComponent(sessionKey)}$`));
      await dockOf(page).getByLabel('Secret value').fill('s3cret-deploy-value-for-e2e');
      await dockOf(page).getByRole('button', { name: 'Submit' }).click();
      await expect(dockOf(page)).toHaveCount(0);
      await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: 'On call' }).click();
      await expect(open.getByText('None waiting.')).toBeVisible();
    });
  });

  test('[E9][K1] on a phone a secret request with a long name breaks it inside the dock and the On call page, neither wider than the screen', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    // The longest name a secret request may have (64 characters, no break opportunity in it).
    const NAME = `PRODUCTION_DATABASE_READ_ONLY_REPLICA_PASSWORD_${'X'.repeat(17)}`;
    await inAnasSession(page, async ({ agent, sessionKey }) => {
      await agent.request('secret.request', { name: NAME, description: 'To read the replica', sessionKey, timeoutMs: 3_600_000 });
      const name = dockOf(page).getByText(NAME, { exact: true });
      await expect(name).toBeVisible();
      const [nameBox, dockBox] = [(await name.boundingBox())!, (await dockOf(page).boundingBox())!];
      expect(nameBox.x + nameBox.width).toBeLessThanOrEqual(dockBox.x + dockBox.width);

      await page.getByRole('button', { name: /^Open sessions/ }).click();
      await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: 'On call' }).click();
      const open = page.getByRole('region', { name: 'Open routed requests' });
      await expect(open.getByRole('link', { name: NAME })).toBeVisible();
      const table = (await open.getByRole('table').boundingBox())!;
      expect(table.x + table.width).toBeLessThanOrEqual(390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    });
  });

  test('[E9] on a phone the On call page keeps each person whole on one line ("Ana (ana)") and the hand-off under who comes next', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const { gateway, close } = await routedGateway(['ana', 'bo']);
    try {
      await page.goto(`${gateway.url}/on-call?token=${ANA}`);
      const row = page.getByRole('region', { name: 'Schedules' }).getByRole('row', { name: /primary/ });
      const [nowCell, nextCell] = [row.getByRole('cell').nth(0), row.getByRole('cell').nth(1)];
      // Whichever of the two is on call today, the other comes next at the 09:00 hand-off.
      await expect(nextCell).toContainText(/from (tomorrow )?09:00$/);
      // A person as the page writes one: the display name, then the id (joined by a no-break space).
      const PERSON = /^(Ana\s\(ana\)|Bo\s\(bo\))$/;
      /** The distinct lines a piece of text is laid out on. */
      const linesOf = (text: ReturnType<typeof page.getByText>) =>
        text.evaluate((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top + r.height / 2))).size;
        });
      for (const person of [nowCell.getByText(PERSON), nextCell.getByText(PERSON)]) {
        await expect(person).toBeVisible();
        expect(await linesOf(person)).toBe(1);
      }
      const handoff = nextCell.getByText(/^\s*from (tomorrow )?09:00$/);
      expect(await linesOf(handoff)).toBe(1);
      const [who, when] = [(await nextCell.getByText(PERSON).boundingBox())!, (await handoff.boundingBox())!];
      expect(who.y + who.height).toBeLessThanOrEqual(when.y + 1);
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await close();
    }
  });

  test('[A3][A5] a sign-in with operator.questions alone answers a session\'s question and the Inbox\'s; the page says it cannot read the conversation, list sessions or send, spins for neither, and offers no New session or composer', async ({ page }) => {
    const { gateway, agent, close } = await routedGateway(['bo']);
    try {
      const { key } = (await agent.request('sessions.create', { title: 'Release' })).session;
      await agent.request('question.request', {
        sessionKey: key,
        questions: [{ id: 'env', header: 'Env', question: 'Which environment?', options: [{ label: 'Staging' }, { label: 'Production' }] }],
        timeoutMs: 3_600_000,
      });
      await page.goto(`${gateway.url}/s/${encodeURIComponent(key)}?token=${BO}`);
      const log = page.getByRole('log', { name: 'Conversation' });
      await expect(log).toContainText("This sign-in may answer this session's questions but not read its conversation: that needs the operator.read scope.");
      await expect(log).not.toContainText('Loading the conversation');
      await expect(log.getByRole('button', { name: 'Try again' })).toHaveCount(0);
      const nav = page.getByRole('navigation', { name: 'Sessions' });
      await expect(nav).toContainText('This sign-in cannot list sessions (that needs the operator.read scope)');
      await expect(nav).not.toContainText('No sessions yet');
      // C1, C2: nothing offers what the gateway would refuse it: no New session, no composer; a note says what sending needs.
      await expect(page.getByRole('button', { name: 'New session' })).toHaveCount(0);

      // The dock still works for it.
      const dock = dockOf(page);
      await dock.getByRole('radio', { name: 'Staging' }).check();
      await page.keyboard.press('Control+Enter');
      await expect(dock).toHaveCount(0);
      await expect(page.getByText('This sign-in cannot send messages (that needs the operator.write scope)', { exact: false })).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
      expect(await seriousAxeViolations(page)).toEqual([]);

      // So does the Inbox, with a sessionless question.
      await agent.request('question.request', {
        questions: [{ id: 'tz', header: 'Timezone', question: 'Which timezone for the report?', options: [{ label: 'UTC' }, { label: 'Local' }] }],
        timeoutMs: 3_600_000,
      });
      await nav.getByRole('link', { name: /^Inbox/ }).click();
      await dock.getByRole('radio', { name: 'UTC' }).check();
      await page.keyboard.press('Control+Enter');
      await expect(dock).toHaveCount(0);
      await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
    } finally {
      await close();
    }
  });
});
