/**
 * Chaos, the network: a socket that drops every few seconds and a tab offline for a long while; every answer and
 * message lands exactly once and drafts are intact. The fixture is in chaos.ts.
 */
import type { AskUserResult } from '../src/agent/ask-user.ts';
import { DEPLOY_QUESTIONS, LUNCH_QUESTIONS } from '../src/agent/demo-agent.ts';
import { type QuestionItemInput, type QuestionRecord } from '../src/protocol/index.ts';
import { formatAsyncAnswerText } from '../src/answers/async-reply.ts';
import { dockOf, logOf, summaryOf } from './dock.ts';
import { connection, expect, expectRecord, occurrences, RECONNECT_MS, stepQuestion, test } from './chaos.ts';

test.describe('chaos: nothing lost, nothing answered twice', () => {
  test('[P6][P7][U11] the socket drops every few seconds while a person answers: every answer and message exactly once', async ({
    page,
    context,
    chaos,
  }) => {
    test.setTimeout(120_000);
    const rounds = 5;
    const key = await chaos.session('Flaky network');
    const agent = await chaos.agent();
    const notes: string[] = [];
    await agent.onUserMessage((m) => notes.push(m.text), { sessionKey: key });
    const results: AskUserResult[] = [];
    const asking = (async () => {
      for (let k = 1; k <= rounds; k++) {
        results.push(await agent.askUser({ questions: stepQuestion(k) }, { sessionKey: key, id: `q-step-${k}` }));
        // The next question waits for the person's note, so notes and answers interleave under the faults.
        await expect.poll(() => notes.includes(`note ${k}`), { timeout: 60_000 }).toBe(true);
      }
    })();
    asking.catch(() => undefined);
    await chaos.open(page, `/s/${key}`);

    // Faults take turns: the browser offline for a moment, or the gateway frozen past the tick watchdog (P6).
    let faulting = true;
    let faults = 0;
    const injector = (async () => {
      for (let i = 0; faulting; i++) {
        await new Promise((r) => setTimeout(r, 600 + (i % 3) * 400));
        if (!faulting) break;
        if (i % 2 === 0) {
          await context.setOffline(true);
          await expect(connection(page)).toHaveText('Offline');
          await context.setOffline(false);
        } else {
          chaos.gateway.freeze();
          // Only the tick watchdog can tell a frozen gateway from a quiet one (P6).
          await expect(connection(page)).toHaveText(/^Reconnecting/);
          chaos.gateway.thaw();
        }
        faults++;
        await expect(connection(page)).toHaveText('Connected', { timeout: RECONNECT_MS });
      }
    })();

    try {
      for (let k = 1; k <= rounds; k++) {
        // Each round waits for a fresh fault, so faults land between and amid the person's actions.
        const before = faults;
        await expect.poll(() => faults, { timeout: 15_000 }).toBeGreaterThan(before);
        const dock = dockOf(page);
        await expect(dock).toContainText(`Which way for step ${k}?`, { timeout: RECONNECT_MS });
        await dock.getByRole('radio', { name: k % 2 ? 'Left' : 'Right' }).click();
        await dock.getByRole('button', { name: 'Submit', exact: true }).click();
        await expect(summaryOf(page, 'Answered').filter({ hasText: `Which way for step ${k}?` })).toBeVisible({ timeout: RECONNECT_MS });
        const message = page.getByRole('textbox', { name: 'Message' });
        await message.fill(`note ${k}`);
        await message.press('Enter');
        await expect(logOf(page).getByRole('article', { name: 'You' }).filter({ hasText: `note ${k}` })).toBeVisible({ timeout: RECONNECT_MS });
      }
      await asking;
    } finally {
      faulting = false;
      await injector;
      chaos.gateway.thaw();
      await context.setOffline(false);
    }

    expect(faults).toBeGreaterThanOrEqual(rounds);
    expect(results.map((r) => r.status === 'answered' && r.answers.answers.way)).toEqual([['Left'], ['Right'], ['Left'], ['Right'], ['Left']]);
    const { questions, texts } = await chaos.snapshot(key);
    expect(questions.size).toBe(rounds);
    for (let k = 1; k <= rounds; k++) {
      expectRecord(questions.get(`q-step-${k}`), 'answered', { way: [k % 2 ? 'Left' : 'Right'] });
      expect(occurrences(texts, `note ${k}`)).toBe(1);
      expect(occurrences(notes, `note ${k}`)).toBe(1);
    }
    await expect(summaryOf(page, 'Answered')).toHaveCount(rounds);
    await expect(summaryOf(page, 'Answered elsewhere')).toHaveCount(0);
  });

  test('[U11][R2][Q7] a tab offline for a long while shows on return what happened meanwhile, with its draft intact', async ({
    page,
    context,
    chaos,
  }) => {
    test.setTimeout(120_000);
    const key = await chaos.session('Away for a while');
    const agent = await chaos.agent();
    const bob = await chaos.operator('bob');
    const coffeeItems: QuestionItemInput[] = [
      { id: 'coffee', header: 'Coffee', question: 'Which coffee should I get?', options: [{ label: 'Espresso' }, { label: 'Filter' }] },
    ];
    const teaItems: QuestionItemInput[] = [
      { id: 'tea', header: 'Tea', question: 'Green or black tea?', options: [{ label: 'Green' }, { label: 'Black' }] },
    ];
    const expiring = chaos.ask(agent, { questions: DEPLOY_QUESTIONS, timeoutSeconds: 30 }, { sessionKey: key, id: 'q-expiring' });
    await agent.askUserAsync({ questions: LUNCH_QUESTIONS }, { sessionKey: key, id: 'q-lunch' });
    await agent.askUserAsync({ questions: coffeeItems }, { sessionKey: key, id: 'q-coffee' });
    await agent.askUserAsync({ questions: teaItems }, { sessionKey: key, id: 'q-tea' });
    await chaos.open(page, `/s/${key}`);

    const dock = dockOf(page);
    await expect(dock.getByText('1/4')).toBeVisible();
    await dock.getByRole('button', { name: 'Next request' }).click();
    await expect(dock).toContainText('What should I order for lunch?');
    await dock.getByRole('textbox', { name: 'Other' }).fill('ramen, extra spicy');

    await context.setOffline(true);
    const offlineAt = Date.now();
    await expect(connection(page)).toHaveText('Offline');

    // While the tab is away: an async answer from elsewhere, a withdrawn question, a message, an expiry, a new question.
    const coffeeReply = formatAsyncAnswerText(coffeeItems as QuestionRecord['questions'], { coffee: ['Espresso'] });
    await bob.request('chat.send', {
      sessionKey: key,
      message: coffeeReply,
      idempotencyKey: `chaos-coffee-${key}`,
      replyTo: { questionId: 'q-coffee', answers: { coffee: ['Espresso'] } },
    });
    expect(await agent.cancelQuestion('q-tea', 'no longer needed', 10_000)).toBe(true);
    await bob.request('chat.send', { sessionKey: key, message: 'while you were away', idempotencyKey: `chaos-away-${key}` });
    expect(await expiring.single()).toEqual(expect.objectContaining({ status: 'no_answer', reason: 'expired' }));
    const hotfix = chaos.ask(
      agent,
      { questions: [{ id: 'ship', header: 'Hotfix', question: 'Ship the hotfix now?', options: [{ label: 'Yes' }, { label: 'No' }] }] },
      { sessionKey: key, id: 'q-hotfix' },
    );
    // Away at least 20 s in all: far past the one-second tick's watchdog and many reconnect attempts.
    await expect.poll(() => Date.now() - offlineAt, { timeout: 40_000 }).toBeGreaterThanOrEqual(20_000);
    await context.setOffline(false);
    await expect(connection(page)).toHaveText('Connected');

    await expect(summaryOf(page, 'Expired')).toContainText('Where should I deploy?');
    await expect(summaryOf(page, 'Answered elsewhere')).toContainText('Espresso');
    await expect(summaryOf(page, 'Cancelled')).toContainText('Green or black tea?');
    await expect(logOf(page)).toContainText('while you were away');
    // The question asked meanwhile is blocking, so it comes first; the lunch draft waits one request over.
    await expect(dock).toContainText('Ship the hotfix now?');
    await dock.getByRole('radio', { name: 'Yes' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(summaryOf(page, 'Answered').filter({ hasText: 'Ship the hotfix now?' })).toBeVisible();
    await expect(dock).toContainText('What should I order for lunch?');
    await expect(dock.getByRole('textbox', { name: 'Other' })).toHaveValue('ramen, extra spicy');
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    const lunchSummary = summaryOf(page, 'Answered').filter({ hasText: 'What should I order for lunch?' });
    await expect(lunchSummary).toContainText('ramen, extra spicy');
    // U9: the summary reads Answered as soon as the answer is in the outbox; the gateway has it once it says Sent.
    await expect(lunchSummary.getByRole('status')).toHaveText('Sent', { timeout: RECONNECT_MS });

    expect(await hotfix.single()).toMatchObject({ status: 'answered', answers: { answers: { ship: ['Yes'] } } });
    const { questions, texts } = await chaos.snapshot(key);
    expect([...questions.keys()].sort()).toEqual(['q-coffee', 'q-expiring', 'q-hotfix', 'q-lunch', 'q-tea']);
    expectRecord(questions.get('q-expiring'), 'expired');
    expectRecord(questions.get('q-coffee'), 'answered', { coffee: ['Espresso'] });
    expectRecord(questions.get('q-tea'), 'cancelled');
    expectRecord(questions.get('q-hotfix'), 'answered', { ship: ['Yes'] });
    expectRecord(questions.get('q-lunch'), 'answered', { lunch: ['ramen, extra spicy'] });
    expect(occurrences(texts, coffeeReply)).toBe(1);
    expect(occurrences(texts, 'while you were away')).toBe(1);
    expect(occurrences(texts, formatAsyncAnswerText(LUNCH_QUESTIONS as QuestionRecord['questions'], { lunch: ['ramen, extra spicy'] }))).toBe(1);
  });
});
