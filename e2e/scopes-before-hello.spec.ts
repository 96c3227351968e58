/**
 * A5: what a sign-in may do shows only once it is known. Before the gateway's hello says which scopes a sign-in holds,
 * neither "New session" nor the composer shows (a sign-in with operator.questions alone would see them vanish); once
 * it arrives they show for whoever may use them, and a reload or a new tab of the same sign-in shows them at once from
 * the last hello this browser had for its token. The hello is held back by the test until it says so, whatever the
 * machine's speed.
 */
import type { Page, WebSocketRoute } from '@playwright/test';
import { seriousAxeViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { newSession } from './sessions.ts';
import { ownGateway } from './own-gateway.ts';

const QUESTIONS_ONLY = `adk_${'q'.repeat(40)}`;
const READER = `adk_${'r'.repeat(40)}`;
const READER_ANSWERER = `adk_${'a'.repeat(40)}`;
const AGENT = `adk_${'g'.repeat(40)}`;
const WHO_STARTS = 'Sessions start from an agent or from a sign-in that may start them (operator.admin, operator.write or operator.sessions.write)';
const CANNOT_SEND = 'This sign-in cannot send messages (that needs the operator.write scope)';
const SHOTS = process.env.ASKDOCK_SHOTS;

/** Routes the page's socket through the test, holding what the gateway sends (its hello first) while `holding`. */
async function holdGateway(page: Page) {
  const held: (() => void)[] = [];
  let holding = true;
  await page.routeWebSocket(/\/ws$/, (ws: WebSocketRoute) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => (holding ? held.push(() => ws.send(message)) : ws.send(message)));
  });
  return {
    heldCount: () => held.length,
    hold: () => void (holding = true),
    release() {
      holding = false;
      for (const send of held.splice(0)) send();
    },
  };
}

/** A gateway of its own with sign-ins holding operator.questions alone, operator.read alone, and both; and an agent. */
function scopedGateway() {
  const identities = [
    { id: 'bo', token: QUESTIONS_ONLY, role: 'operator', scopes: ['operator.questions'] },
    { id: 'cy', token: READER, role: 'operator', scopes: ['operator.read'] },
    { id: 'di', token: READER_ANSWERER, role: 'operator', scopes: ['operator.read', 'operator.questions'] },
    { id: 'agent', token: AGENT, role: 'agent', scopes: ['agent.run'] },
  ];
  return ownGateway({ identities }, AGENT, 'scopes');
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `${SHOTS}/${name}-${width}-${colorScheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('what a sign-in may do, before and after the gateway says (A5)', () => {
  test('[A5][C1][C2] operator.questions alone: before its hello neither "New session" nor the composer shows; after it, the note', async ({ page }) => {
    const { gateway, agent, close } = await scopedGateway();
    try {
      const { key } = (await agent.request('sessions.create', { title: 'Release' })).session;
      const socket = await holdGateway(page);
      await page.goto(`${gateway.url}/s/${encodeURIComponent(key)}?token=${QUESTIONS_ONLY}`);
      const nav = page.getByRole('navigation', { name: 'Sessions' });
      await expect(nav).toBeVisible();
      await expect(page.getByRole('log', { name: 'Conversation' })).toBeVisible();
      // The hello is here, held: the page has drawn what it draws before it.
      await expect.poll(socket.heldCount).toBeGreaterThan(0);
      await expect(page.getByRole('button', { name: 'New session' })).toHaveCount(0);
      await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
      await expect(page.getByText(CANNOT_SEND, { exact: false })).toHaveCount(0);
      await shoot(page, 'questions-only-before-hello');

      socket.release();
      await expect(page.getByText(CANNOT_SEND, { exact: false })).toBeVisible();
      await expect(page.getByRole('button', { name: 'New session' })).toHaveCount(0);
      await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
      await shoot(page, 'questions-only-session');
    } finally {
      await close();
    }
  });

  test('[A5][C2] a sign-in that may send: the composer comes with the hello, and after a reload or in a new tab at once', async ({ page, gateway, openApp }) => {
    await openApp(page);
    await newSession(page);
    const socket = await holdGateway(page);
    const message = page.getByRole('textbox', { name: 'Message' });
    await page.reload();
    // This tab's last hello granted operator.admin: the composer and New session show before the next one is let through.
    await expect.poll(socket.heldCount).toBeGreaterThan(0);
    await expect(message).toBeVisible();
    await expect(page.getByRole('button', { name: 'New session' })).toBeVisible();
    socket.release();
    await message.fill('after reload');
    await message.press('Enter');
    await expect(page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Agent' })).toContainText('Echo: after reload');

    // A new tab of the same sign-in (the browser's remembered token, as when opened while the gateway is down): the
    // composer at once, from what the last hello on this browser granted this token.
    const fresh = await page.context().newPage();
    const freshSocket = await holdGateway(fresh);
    await fresh.goto(`${gateway.url}${new URL(page.url()).pathname}`);
    await expect.poll(freshSocket.heldCount).toBeGreaterThan(0);
    await expect(fresh.getByRole('log', { name: 'Conversation' })).toBeVisible();
    await expect(fresh.getByRole('textbox', { name: 'Message' })).toBeVisible();
    freshSocket.release();
    await expect(fresh.getByRole('textbox', { name: 'Message' })).toBeVisible();
    await fresh.close();
  });

  test('[A3][A5] operator.read alone with no sessions: the home page says sessions will show to read, not questions nor New session', async ({ page }) => {
    const { gateway, close } = await scopedGateway();
    try {
      await page.goto(`${gateway.url}/?token=${READER}`);
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { name: 'No sessions yet', level: 1 })).toBeVisible();
      await expect(main).toContainText('Sessions started by agents or other sign-ins will appear here to read.');
      await expect(main).toContainText(WHO_STARTS);
      await expect(main).not.toContainText('Questions that reach this sign-in');
      await expect(main).not.toContainText('New session');
      await expect(page.getByRole('button', { name: 'New session' })).toHaveCount(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shoot(page, 'reader-home');
    } finally {
      await close();
    }
  });

  test('[A3][A5] operator.read with operator.questions and no sessions: the home page says questions will show, ready to answer', async ({ page }) => {
    const { gateway, close } = await scopedGateway();
    try {
      await page.goto(`${gateway.url}/?token=${READER_ANSWERER}`);
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { name: 'No sessions yet', level: 1 })).toBeVisible();
      await expect(main).toContainText('Questions that reach this sign-in will appear here, ready to answer.');
      await expect(main).toContainText(`${WHO_STARTS}; questions asked without a session wait in the Inbox.`);
      await expect(page.getByRole('button', { name: 'New session' })).toHaveCount(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shoot(page, 'reader-answerer-home');
    } finally {
      await close();
    }
  });
});
