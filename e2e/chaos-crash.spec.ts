/**
 * Chaos, a gateway SIGKILL: drafts typed through the crash survive, answers in flight or in the outbox land exactly
 * once, and each askUser gets exactly one result. The fixture is in chaos.ts.
 */
import { DEPLOY_QUESTIONS, LUNCH_QUESTIONS } from '../src/agent/demo-agent.ts';
import { type QuestionItemInput, type QuestionRecord } from '../src/protocol/index.ts';
import { formatAsyncAnswerText } from '../src/answers/async-reply.ts';
import { dockOf, summaryOf } from './dock.ts';
import { connection, expect, expectRecord, occurrences, parseFrame, RECONNECT_MS, test } from './chaos.ts';

test.describe('chaos: nothing lost, nothing answered twice', () => {
  test('[U11][R3] a gateway SIGKILL and restart while a person types in the dock and on a question link: both drafts survive, each answer lands once', async ({
    page,
    context,
    chaos,
  }) => {
    test.setTimeout(90_000);
    const key = await chaos.session('Typing through a crash');
    const linkKey = await chaos.session('Link through a crash');
    const agent = await chaos.agent();
    const docked = chaos.ask(agent, { questions: DEPLOY_QUESTIONS }, { sessionKey: key, id: 'q-typing' });
    const linked = chaos.ask(agent, { questions: LUNCH_QUESTIONS }, { sessionKey: linkKey, id: 'q-link-crash' });
    await chaos.open(page, `/s/${key}`);
    const linkPage = await context.newPage();
    await chaos.open(linkPage, '/q/q-link-crash');

    const dock = dockOf(page);
    await dock.getByRole('radio', { name: 'Production' }).click();
    await dock.getByRole('button', { name: 'Next', exact: true }).click();
    await dock.getByRole('checkbox', { name: 'Email' }).click();
    const other = dock.getByRole('textbox', { name: 'Other' });
    await other.pressSequentially('the ops ');
    const linkOther = linkPage.getByRole('textbox', { name: 'Other' });
    await linkOther.pressSequentially('pho ');

    await chaos.gateway.kill();
    await expect(connection(page)).toHaveText(/^Reconnecting/);
    await expect(connection(linkPage)).toHaveText(/^Reconnecting/);
    await other.pressSequentially('channel');
    await linkOther.pressSequentially('from the corner');
    await chaos.gateway.start();
    // By itself: nobody presses "Reconnect now".
    await expect(connection(page)).toHaveText('Connected', { timeout: RECONNECT_MS });
    await expect(connection(linkPage)).toHaveText('Connected', { timeout: RECONNECT_MS });

    await expect(other).toHaveValue('the ops channel');
    await expect(dock.getByRole('checkbox', { name: 'Email' })).toBeChecked();
    await dock.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(dock.getByRole('radio', { name: 'Production' })).toBeChecked();
    await dock.getByRole('button', { name: 'Next', exact: true }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(summaryOf(page, 'Answered')).toContainText('Email, the ops channel');
    await expect(linkOther).toHaveValue('pho from the corner');
    await linkPage.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(linkPage.getByRole('heading', { name: 'Answer sent' })).toBeVisible();

    const answers = { env: ['Production'], notify: ['Email', 'the ops channel'] };
    expect(await docked.single()).toMatchObject({ status: 'answered', answers: { answers } });
    expect(await linked.single()).toMatchObject({ status: 'answered', answers: { answers: { lunch: ['pho from the corner'] } } });
    const dockSide = await chaos.snapshot(key);
    expect([...dockSide.questions.keys()]).toEqual(['q-typing']);
    expectRecord(dockSide.questions.get('q-typing'), 'answered', answers);
    const linkSide = await chaos.snapshot(linkKey);
    expect([...linkSide.questions.keys()]).toEqual(['q-link-crash']);
    expectRecord(linkSide.questions.get('q-link-crash'), 'answered', { lunch: ['pho from the corner'] });
    expect(linkSide.questions.get('q-link-crash')?.resolvedBy).toMatchObject({ identity: 'alice', surface: 'link' });
  });

  test('[U11][Q5][P7][R3] a SIGKILL with answers in flight, one the gateway never read and one it saved but whose acknowledgement was lost: each answered exactly once', async ({
    page,
    browser,
    chaos,
  }) => {
    test.setTimeout(90_000);
    const unreadKey = await chaos.session('Answer never read');
    const savedKey = await chaos.session('Acknowledgement lost');
    const agent = await chaos.agent();
    const unread = chaos.ask(agent, { questions: DEPLOY_QUESTIONS }, { sessionKey: unreadKey, id: 'q-unread' });
    const saved = chaos.ask(agent, { questions: LUNCH_QUESTIONS }, { sessionKey: savedKey, id: 'q-lost-ack' });

    // A second browser whose socket runs through a relay: it notes each question.resolve and, while told to,
    // swallows the gateway's answer to it.
    const other = await browser.newContext();
    const savedPage = await other.newPage();
    let dropAcks = false;
    const resolveIds = new Set<string>();
    const resolveReplies: Array<{ ok: boolean }> = [];
    await savedPage.routeWebSocket(/\/ws$/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        const frame = parseFrame(message);
        if (frame?.type === 'req' && frame.method === 'question.resolve' && frame.id) resolveIds.add(frame.id);
        server.send(message);
      });
      server.onMessage((message) => {
        const frame = parseFrame(message);
        if (frame?.type === 'res' && frame.id && resolveIds.has(frame.id)) {
          if (dropAcks) return;
          resolveReplies.push({ ok: frame.ok === true });
        }
        ws.send(message);
      });
    });
    try {
      await chaos.open(page, `/s/${unreadKey}`);
      await chaos.open(savedPage, `/s/${savedKey}`);

      // Saved: the agent has the answer and the page its event, but the page's resolve is still unanswered.
      const savedDock = dockOf(savedPage);
      await savedDock.getByRole('radio', { name: 'Sushi' }).click();
      dropAcks = true;
      await savedDock.getByRole('button', { name: 'Submit', exact: true }).click();
      expect(await saved.single()).toMatchObject({ status: 'answered', answers: { answers: { lunch: ['Sushi'] } } });
      await expect(summaryOf(savedPage, 'Answered')).toContainText('Sushi');
      expect(resolveReplies).toEqual([]);

      // Never read: frozen, the gateway does not read the resolve; killed, it is gone with it, so only the re-send can answer.
      const dock = dockOf(page);
      await dock.getByRole('radio', { name: 'Staging (Recommended)' }).click();
      await dock.getByRole('button', { name: 'Next', exact: true }).click();
      await dock.getByRole('checkbox', { name: 'Slack' }).click();
      chaos.gateway.freeze();
      await dock.getByRole('button', { name: 'Submit', exact: true }).click();
      await expect(dock.getByText('Sending…')).toBeVisible();

      await chaos.gateway.kill();
      dropAcks = false;
      await chaos.gateway.start();

      await expect(summaryOf(page, 'Answered')).toContainText('Slack', { timeout: RECONNECT_MS });
      await expect(dock).toBeHidden();
      // The client re-sent the same resolve after reconnecting; the gateway answered it with the first result (Q5).
      await expect.poll(() => resolveReplies, { timeout: RECONNECT_MS }).toEqual([{ ok: true }]);
      await expect(summaryOf(savedPage, 'Answered')).toContainText('Sushi');
      await expect(summaryOf(savedPage, 'Answered elsewhere')).toHaveCount(0);
    } finally {
      await other.close();
    }

    const answers = { env: ['Staging (Recommended)'], notify: ['Slack'] };
    expect(await unread.single()).toMatchObject({ status: 'answered', answers: { answers } });
    expect(saved.results).toHaveLength(1);
    const unreadSide = await chaos.snapshot(unreadKey);
    expect([...unreadSide.questions.keys()]).toEqual(['q-unread']);
    expectRecord(unreadSide.questions.get('q-unread'), 'answered', answers);
    expect(unreadSide.questions.get('q-unread')?.resolvedBy).toMatchObject({ identity: 'alice', surface: 'control-ui' });
    const savedSide = await chaos.snapshot(savedKey);
    expect([...savedSide.questions.keys()]).toEqual(['q-lost-ack']);
    expectRecord(savedSide.questions.get('q-lost-ack'), 'answered', { lunch: ['Sushi'] });
  });

  test('[U9][U11] a SIGKILL while async answers sit in the outbox, one sending and one queued: each delivered exactly once', async ({
    page,
    context,
    chaos,
  }) => {
    test.setTimeout(90_000);
    const key = await chaos.session('Outbox through a crash');
    const agent = await chaos.agent();
    const replies: string[] = [];
    await agent.onUserMessage((m) => m.replyTo && replies.push(m.replyTo.questionId), { sessionKey: key });
    const coffeeItems: QuestionItemInput[] = [
      { id: 'coffee', header: 'Coffee', question: 'Which coffee should I get?', options: [{ label: 'Espresso' }, { label: 'Filter' }] },
    ];
    await agent.askUserAsync({ questions: LUNCH_QUESTIONS }, { sessionKey: key, id: 'q-sending' });
    await agent.askUserAsync({ questions: coffeeItems }, { sessionKey: key, id: 'q-queued' });
    await chaos.open(page, `/s/${key}`);
    const dock = dockOf(page);
    const lunch = summaryOf(page, 'Answered').filter({ hasText: 'What should I order for lunch?' });
    const coffee = summaryOf(page, 'Answered').filter({ hasText: 'Which coffee should I get?' });

    // Sending: the chat.send goes into a frozen gateway, which never reads it.
    await expect(dock).toContainText('What should I order for lunch?');
    await dock.getByRole('radio', { name: 'Salad' }).click();
    chaos.gateway.freeze();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(lunch.getByRole('status')).toHaveText('Sending');
    // Queued: answered with the tab offline, behind the one still out.
    await context.setOffline(true);
    await expect(connection(page)).toHaveText('Offline');
    await expect(dock).toContainText('Which coffee should I get?');
    await dock.getByRole('radio', { name: 'Filter' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(coffee.getByRole('status')).toHaveText('Queued');

    // Killed with both in the outbox; the tab comes back to a gateway that is not there yet.
    await chaos.gateway.kill();
    await context.setOffline(false);
    await expect(connection(page)).toHaveText(/^Reconnecting/);
    await expect(coffee.getByRole('status')).toHaveText('Queued');
    await chaos.gateway.start();
    await expect(lunch.getByRole('status')).toHaveText('Sent', { timeout: RECONNECT_MS });
    await expect(coffee.getByRole('status')).toHaveText('Sent', { timeout: RECONNECT_MS });

    await expect.poll(() => [...replies].sort()).toEqual(['q-queued', 'q-sending']);
    const { questions, texts } = await chaos.snapshot(key);
    expectRecord(questions.get('q-sending'), 'answered', { lunch: ['Salad'] });
    expectRecord(questions.get('q-queued'), 'answered', { coffee: ['Filter'] });
    expect(occurrences(texts, formatAsyncAnswerText(LUNCH_QUESTIONS as QuestionRecord['questions'], { lunch: ['Salad'] }))).toBe(1);
    expect(occurrences(texts, formatAsyncAnswerText(coffeeItems as QuestionRecord['questions'], { coffee: ['Filter'] }))).toBe(1);
    expect(replies).toHaveLength(2);
  });
});
