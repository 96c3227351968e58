import type { Locator, Page, TestInfo, WebSocketRoute } from '@playwright/test';
import type { GatewayClient } from '../src/client/client.ts';
import { createNodeClient } from '../src/client/node.ts';
import { expect, test, type GatewayFixture } from './fixtures.ts';
import { seriousAxeViolations } from './axe.ts';
import { newSession } from './sessions.ts';

type OpenApp = (page: Page, path?: string) => Promise<void>;

const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const dockOf = (page: Page) => page.getByRole('region', { name: 'Questions' });
const logOf = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const summaryOf = (page: Page, outcome: string) =>
  logOf(page).getByRole('group', { name: `Question ${outcome.toLowerCase()}`, exact: true });
const deliveryOf = (page: Page) => summaryOf(page, 'Answered').getByRole('status');
const sessionKeyOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

async function send(page: Page, text: string) {
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
}

async function shoot(page: Page, testInfo: TestInfo, name: string, target?: Locator) {
  const path = testInfo.outputPath(`${name}.png`);
  await (target ?? page).screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Opens a new session and has the demo agent ask its async lunch question; focus stays in the composer. */
async function askLunch(page: Page, openApp: OpenApp) {
  await openApp(page);
  await newSession(page);
  await send(page, 'async lunch please');
  const dock = dockOf(page);
  await expect(dock.getByRole('radio', { name: 'Pizza (Recommended)' })).toBeVisible();
  return dock;
}

/** A Node client signed in as the operator, to check what the gateway holds. */
async function operator(gateway: GatewayFixture): Promise<GatewayClient> {
  const client = createNodeClient({ url: gateway.url, token: gateway.operatorToken, client: { name: 'e2e async check', mode: 'cli' } });
  await client.start();
  return client;
}

async function lunchQuestion(client: GatewayClient, sessionKey: string) {
  const { questions } = await client.request('question.list', { sessionKey });
  const lunch = questions.find((q) => q.questions[0]?.id === 'lunch');
  if (!lunch) throw new Error(`no lunch question in session ${sessionKey}`);
  return lunch;
}

/** The chat messages replying to the question: an async answer must exist at most once (C2, Q9). */
async function repliesTo(client: GatewayClient, sessionKey: string, questionId: string) {
  const { messages } = await client.request('chat.history', { sessionKey, limit: 500 });
  return messages.filter((m) => m.replyTo?.questionId === questionId);
}

/** What the socket route does: cut the link right after the gateway answers the async reply, refuse new links, or swallow the reply. */
type Gate = { cutAfterReply: boolean; refuse: boolean; swallowReply: boolean };

const isAnswerSend = (frame: string | Buffer) => {
  const text = frame.toString();
  return text.includes('"chat.send"') && text.includes('"replyTo"') ? (JSON.parse(text) as { id: string }).id : null;
};

/** Puts every gateway socket of the page through the test, which plays the network faults `gate` asks for. */
async function routeGateway(page: Page, gate: Gate) {
  await page.routeWebSocket(/\/ws$/, (ws: WebSocketRoute) => {
    if (gate.refuse) return void ws.close({ code: 1011, reason: 'network down (test)' });
    const server = ws.connectToServer();
    let cutOnReplyTo: string | null = null;
    ws.onMessage((frame) => {
      const answerId = isAnswerSend(frame);
      if (answerId && gate.swallowReply) return;
      if (answerId && gate.cutAfterReply) {
        gate.cutAfterReply = false;
        cutOnReplyTo = answerId;
      }
      server.send(frame);
    });
    server.onMessage((frame) => {
      // The gateway saved the answer and said so (the reply's chat event, then the response); the page hears neither.
      const text = frame.toString();
      if (cutOnReplyTo && (text.includes(`"id":"${cutOnReplyTo}"`) || (text.includes('"event":"chat"') && text.includes('"replyTo"')))) {
        gate.refuse = true;
        void ws.close({ code: 1011, reason: 'dropped mid-send (test)' });
        void server.close();
        return;
      }
      ws.send(frame);
    });
  });
}

test.describe('async questions and the outbox', () => {
  test('[U8] an async question docks without taking focus; the composer stays usable; its own turn does not dismiss it', async ({
    page,
    openApp,
  }, testInfo) => {
    const dock = await askLunch(page, openApp);
    await expect(messageBox(page)).toBeFocused();
    await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('I asked about lunch');
    await expect(dock.getByRole('radio', { name: 'Pizza (Recommended)' })).toBeVisible();
    await messageBox(page).fill('still typing here');
    await expect(messageBox(page)).toHaveValue('still typing here');
    await shoot(page, testInfo, 'async-docked');

    await dock.getByRole('button', { name: 'Collapse questions' }).click();
    await expect(dock).toContainText('1 pending');
    await expect(dock).toContainText('What should I order for lunch?');
    await expect(messageBox(page)).toHaveValue('still typing here');
    await shoot(page, testInfo, 'async-collapsed', dock);
  });

  test('[U6][U8] a new blocking question takes priority; the async one stays reachable through the request arrows', async ({ page, openApp }) => {
    const dock = await askLunch(page, openApp);
    await send(page, 'deploy now');
    await expect(dock.getByRole('radio', { name: 'Staging (Recommended)' })).toBeFocused();
    await expect(messageBox(page)).toBeHidden();
    await dock.getByRole('button', { name: 'Previous request' }).click();
    await expect(dock.getByRole('radio', { name: 'Sushi' })).toBeVisible();
    await expect(messageBox(page)).toBeVisible();
  });

  test('[Q10][U8] a later successful run retires the reminder, a failed one does not; Answer reopens it with the draft kept', async ({
    page,
    openApp,
    gateway,
  }, testInfo) => {
    const dock = await askLunch(page, openApp);
    await dock.getByRole('radio', { name: 'Sushi' }).click();
    const client = await operator(gateway);
    try {
      const id = (await lunchQuestion(client, sessionKeyOf(page))).id;

      await send(page, 'fail on purpose');
      await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('This run fails on purpose.');
      await expect.poll(async () => (await client.request('question.get', { id })).question.retiredAtMs).toBeUndefined();
      await expect(dock.getByRole('radio', { name: 'Sushi' })).toBeChecked();

      await send(page, 'hello again');
      await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('Echo: hello again');
      await expect(dock).toBeHidden();
      const reminder = summaryOf(page, 'No longer pending');
      await expect(reminder).toContainText('What should I order for lunch?');
      const { question } = await client.request('question.get', { id });
      expect(question.status).toBe('pending');
      expect(question.retiredAtMs).toEqual(expect.any(Number));
      await shoot(page, testInfo, 'async-retired');

      await reminder.getByRole('button', { name: 'Answer' }).click();
      await expect(dock.getByRole('radio', { name: 'Sushi' })).toBeChecked();
      await expect(dock.getByRole('radio', { name: 'Sushi' })).toBeFocused();
      await shoot(page, testInfo, 'async-reopened');
    } finally {
      client.close();
    }
  });

  test('[U9][Q9] offline, the answer waits Queued; back online it is Sent once, and stays confirmed after reload', async ({
    page,
    context,
    openApp,
    gateway,
  }, testInfo) => {
    const dock = await askLunch(page, openApp);
    await context.setOffline(true);
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Offline');
    await dock.getByRole('radio', { name: 'Sushi' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(dock).toBeHidden();
    await expect(deliveryOf(page)).toHaveText('Queued');
    await expect(summaryOf(page, 'Answered')).toContainText('Sushi');
    await expect(messageBox(page)).toBeVisible();
    await shoot(page, testInfo, 'async-queued');

    expect(await seriousAxeViolations(page)).toEqual([]);

    await context.setOffline(false);
    await expect(deliveryOf(page)).toHaveText('Sent', { timeout: 15_000 });
    await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('Thanks — Lunch: Sushi');
    const client = await operator(gateway);
    try {
      const id = (await lunchQuestion(client, sessionKeyOf(page))).id;
      const replies = await repliesTo(client, sessionKeyOf(page), id);
      expect(replies.map((m) => m.text)).toEqual(['> Lunch\nSushi']);
      expect((await client.request('question.get', { id })).question).toMatchObject({ status: 'answered', replyMessageId: replies[0].id });
    } finally {
      client.close();
    }
    await shoot(page, testInfo, 'async-sent');

    await page.reload();
    await expect(deliveryOf(page)).toHaveText('Sent');
    await expect(summaryOf(page, 'Answered')).toContainText('Sushi');
    await expect(dock).toBeHidden();
  });

  test('[U9][U11] the link drops mid-send: Sending, unconfirmed; Retry answer re-sends the same row; the gateway holds one reply', async ({
    page,
    openApp,
    gateway,
  }, testInfo) => {
    test.slow();
    const gate: Gate = { cutAfterReply: false, refuse: false, swallowReply: false };
    await routeGateway(page, gate);
    const dock = await askLunch(page, openApp);
    await dock.getByRole('radio', { name: 'Salad' }).click();
    gate.cutAfterReply = true;
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(deliveryOf(page)).toHaveText('Sending');
    await expect(summaryOf(page, 'Answered').locator('.delivery-status')).toHaveAttribute('data-state', 'unconfirmed');
    await expect(summaryOf(page, 'Answered')).toContainText('retrying never sends it twice');
    await shoot(page, testInfo, 'async-unconfirmed');

    const client = await operator(gateway);
    try {
      const sessionKey = sessionKeyOf(page);
      const id = (await lunchQuestion(client, sessionKey)).id;
      // The gateway saved it before the link dropped; only the page does not know.
      expect(await repliesTo(client, sessionKey, id)).toHaveLength(1);

      await summaryOf(page, 'Answered').getByRole('button', { name: 'Retry answer' }).click();
      await expect(deliveryOf(page)).toHaveText('Queued');
      gate.refuse = false;
      await expect(deliveryOf(page)).toHaveText('Sent', { timeout: 40_000 });
      const replies = await repliesTo(client, sessionKey, id);
      expect(replies.map((m) => m.text)).toEqual(['> Lunch\nSalad']);
      await shoot(page, testInfo, 'async-retried-sent');
    } finally {
      client.close();
    }
  });

  test('[U8][Q10] a reminder put back by Discard or Answer leaves the dock when a later run retires it, and stays out after reload', async ({
    page,
    context,
    openApp,
  }, testInfo) => {
    const dock = await askLunch(page, openApp);
    await context.setOffline(true);
    await dock.getByRole('radio', { name: 'Salad' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(deliveryOf(page)).toHaveText('Queued');
    await summaryOf(page, 'Answered').getByRole('button', { name: 'Discard' }).click();
    await expect(dock.getByRole('radio', { name: 'Salad' })).toBeChecked();
    await context.setOffline(false);

    await send(page, 'hello again');
    await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('Echo: hello again');
    await expect(dock).toBeHidden();
    await expect(summaryOf(page, 'No longer pending')).toContainText('What should I order for lunch?');
    await page.reload();
    await expect(summaryOf(page, 'No longer pending')).toContainText('What should I order for lunch?');
    await expect(dock).toBeHidden();

    await summaryOf(page, 'No longer pending').getByRole('button', { name: 'Answer' }).click();
    await expect(dock.getByRole('radio', { name: 'Salad' })).toBeChecked();
    await send(page, 'and once more');
    await expect(logOf(page).getByRole('article', { name: 'Agent' }).last()).toContainText('Echo: and once more');
    await expect(dock).toBeHidden();
    await page.reload();
    await expect(summaryOf(page, 'No longer pending')).toContainText('What should I order for lunch?');
    await expect(dock).toBeHidden();
    await shoot(page, testInfo, 'async-retired-again');
  });

  test('[U9][U10] Discard in one tab reopens the draft in every open tab of the conversation', async ({ page, context, openApp }, testInfo) => {
    const dockA = await askLunch(page, openApp);
    const pageB = await context.newPage();
    await openApp(pageB, new URL(page.url()).pathname);
    const dockB = dockOf(pageB);
    await expect(dockB.getByRole('radio', { name: 'Pizza (Recommended)' })).toBeVisible();

    await context.setOffline(true);
    await dockA.getByRole('radio', { name: 'Salad' }).click();
    // Drafts follow across tabs of one conversation (U10).
    await expect(dockB.getByRole('radio', { name: 'Salad' })).toBeChecked();
    await dockA.getByRole('textbox', { name: 'Other' }).fill('extra dressing');
    await dockA.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(deliveryOf(page)).toHaveText('Queued');
    await expect(deliveryOf(pageB)).toHaveText('Queued');
    await expect(dockB).toBeHidden();

    await summaryOf(page, 'Answered').getByRole('button', { name: 'Discard' }).click();
    await expect(dockA.getByRole('textbox', { name: 'Other' })).toHaveValue('extra dressing');
    await expect(dockB.getByRole('textbox', { name: 'Other' })).toHaveValue('extra dressing');
    await expect(summaryOf(pageB, 'Answered')).toHaveCount(0);
    await shoot(pageB, testInfo, 'async-discarded-other-tab');
    await context.setOffline(false);
  });

  test('[U10][U9] a reload keeps the outbox row and its state; the row is sent again with its same key', async ({ page, openApp, gateway }, testInfo) => {
    test.slow();
    const gate: Gate = { cutAfterReply: false, refuse: false, swallowReply: true };
    await routeGateway(page, gate);
    const dock = await askLunch(page, openApp);
    await dock.getByRole('radio', { name: 'Pizza (Recommended)' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(deliveryOf(page)).toHaveText('Sending');

    await page.reload();
    await expect(deliveryOf(page)).toHaveText('Sending');
    await expect(summaryOf(page, 'Answered')).toContainText('Pizza (Recommended)');
    await shoot(page, testInfo, 'async-sending-after-reload');

    gate.swallowReply = false;
    // The closed tab's send lease runs out, then this tab sends the row again.
    await expect(deliveryOf(page)).toHaveText('Sent', { timeout: 30_000 });
    const client = await operator(gateway);
    try {
      const id = (await lunchQuestion(client, sessionKeyOf(page))).id;
      expect(await repliesTo(client, sessionKeyOf(page), id)).toHaveLength(1);
    } finally {
      client.close();
    }
  });

  test('[U8] Skip sends nothing and keeps a summary; Undo for a few seconds puts it back with its draft', async ({
    page,
    openApp,
    gateway,
  }, testInfo) => {
    test.slow();
    const dock = await askLunch(page, openApp);
    await dock.getByRole('textbox', { name: 'Other' }).fill('Ramen');
    await dock.getByRole('button', { name: 'Skip', exact: true }).click();
    await expect(dock).toBeHidden();
    const skipped = summaryOf(page, 'Skipped');
    await expect(skipped).toContainText('What should I order for lunch?');
    await shoot(page, testInfo, 'async-skipped');

    const client = await operator(gateway);
    try {
      const lunch = await lunchQuestion(client, sessionKeyOf(page));
      expect(lunch.status).toBe('pending');
      expect(await repliesTo(client, sessionKeyOf(page), lunch.id)).toEqual([]);
    } finally {
      client.close();
    }

    await skipped.getByRole('button', { name: 'Undo' }).click();
    await expect(dock.getByRole('textbox', { name: 'Other' })).toHaveValue('Ramen');
    await expect(summaryOf(page, 'Skipped')).toHaveCount(0);

    await dock.getByRole('button', { name: 'Skip', exact: true }).click();
    await expect(summaryOf(page, 'Skipped').getByRole('button', { name: 'Undo' })).toBeVisible();
    await expect(summaryOf(page, 'Skipped').getByRole('button', { name: 'Undo' })).toBeHidden({ timeout: 12_000 });
    await page.reload();
    await expect(summaryOf(page, 'Skipped')).toContainText('What should I order for lunch?');
    await expect(dock).toBeHidden();
  });
});
