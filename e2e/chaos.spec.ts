/**
 * Chaos: the real gateway as a child process (`askdock gateway`) on one port and one SQLite file, killed with
 * SIGKILL, frozen with SIGSTOP, and a browser tab taken offline, while a person answers in the built Control UI
 * and an SDK agent in this process asks. After each: every acknowledged message and answer is there exactly once,
 * drafts are intact, and each askUser got exactly one result.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import type { AskUserInput, AskUserResult } from '../src/agent/ask-user.ts';
import { DEPLOY_QUESTIONS, LUNCH_QUESTIONS } from '../src/agent/demo-agent.ts';
import { connect, type Agent, type AskOptions } from '../src/agent/sdk.ts';
import type { GatewayClient } from '../src/client/client.ts';
import { createNodeClient } from '../src/client/node.ts';
import { REPO } from '../src/testing/gateway-child.ts';
import { RestartableGateway } from '../src/testing/restartable-gateway.ts';
import { type Answers, type QuestionItemInput, type QuestionRecord } from '../src/protocol/index.ts';
import { type GatewayConfig } from '../src/gateway/config.ts';
import { formatAsyncAnswerText } from '../src/answers/async-reply.ts';

const TOKENS = {
  alice: 'chaos-alice-token-0123456789',
  bob: 'chaos-bob-token-0123456789',
  agent: 'chaos-agent-token-0123456789',
} as const;

const CONFIG: GatewayConfig = {
  identities: [
    { id: 'alice', token: TOKENS.alice, role: 'operator', scopes: ['operator.admin'] },
    { id: 'bob', token: TOKENS.bob, role: 'operator', scopes: ['operator.admin'] },
    { id: 'agent', token: TOKENS.agent, role: 'agent', scopes: ['agent.run'] },
  ],
  // P6: a one-second tick, so a silent (frozen) gateway is given up within two seconds.
  policy: { tickIntervalMs: 1000 },
};

/** Node clients in this process come back quickly after each fault; the page keeps the UI's own backoff. */
const FAST_BACKOFF = { initialMs: 200, maxMs: 2000 };
/** How long a reconnect after a restart may take on a loaded two-core machine (gateway start plus backoff). */
const RECONNECT_MS = 40_000;

type Asked = {
  /** Every result askUser gave: a promise settles once, so more than one would mean a second call. */
  results: AskUserResult[];
  /** Resolves with the one result, failing if askUser threw. */
  single(): Promise<AskUserResult>;
};

type Chaos = {
  gateway: RestartableGateway;
  operator(who: 'alice' | 'bob'): Promise<GatewayClient>;
  agent(): Promise<Agent>;
  session(title: string): Promise<string>;
  /** Opens the Control UI signed in as alice. */
  open(page: Page, path: string): Promise<void>;
  ask(agent: Agent, input: AskUserInput, opts: AskOptions): Asked;
  /** A fresh operator's view of a session: its questions by id and its messages' texts. */
  snapshot(sessionKey: string): Promise<{ questions: Map<string, QuestionRecord>; texts: string[] }>;
};

const test = base.extend<{ chaos: Chaos }, { chaosGateway: RestartableGateway }>({
  chaosGateway: [
    async ({}, use) => {
      if (!existsSync(join(REPO, 'dist', 'index.html'))) throw new Error('no built UI in dist/: run `npx vite build` before the e2e tests');
      const gateway = await RestartableGateway.start(CONFIG);
      try {
        await use(gateway);
      } finally {
        await gateway.close();
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],

  chaos: async ({ chaosGateway: gateway }, use) => {
    // A test that failed mid-fault must not leave the next one a dead or frozen gateway.
    gateway.thaw();
    await gateway.start();
    const owned: Array<{ close(): void }> = [];
    const operator = async (who: 'alice' | 'bob') => {
      const client = createNodeClient({ url: gateway.url, token: TOKENS[who], client: { name: `chaos-${who}`, mode: 'cli' }, backoff: FAST_BACKOFF });
      owned.push(client);
      await client.start();
      return client;
    };
    const chaos: Chaos = {
      gateway,
      operator,
      agent: async () => {
        const agent = await connect({ url: gateway.url, token: TOKENS.agent, name: 'chaos-agent', backoff: FAST_BACKOFF, connectTimeoutMs: 30_000 });
        owned.push(agent);
        return agent;
      },
      session: async (title) => {
        const alice = await operator('alice');
        return (await alice.request('sessions.create', { title })).session.key;
      },
      open: async (page, path) => {
        await page.goto(`${gateway.url}${path}?token=${encodeURIComponent(TOKENS.alice)}`);
        await expect(connection(page)).toHaveText('Connected');
      },
      ask: (agent, input, opts) => {
        const results: AskUserResult[] = [];
        const settled = agent.askUser(input, opts).then((r) => {
          results.push(r);
          return r;
        });
        settled.catch(() => undefined);
        return {
          results,
          single: async () => {
            const r = await settled;
            expect(results).toHaveLength(1);
            return r;
          },
        };
      },
      snapshot: async (sessionKey) => {
        const alice = await operator('alice');
        const { questions } = await alice.request('question.list', { sessionKey });
        const { messages, hasMore } = await alice.request('chat.history', { sessionKey, limit: 500 });
        expect(hasMore).toBe(false);
        return { questions: new Map(questions.map((q) => [q.id, q])), texts: messages.map((m) => m.text) };
      },
    };
    try {
      await use(chaos);
    } finally {
      for (const client of owned) client.close();
    }
  },
});

const connection = (page: Page) => page.getByRole('status', { name: 'Connection' });
const dockOf = (page: Page) => page.getByRole('region', { name: 'Questions' });
const logOf = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const summaryOf = (page: Page, outcome: string) => logOf(page).getByRole('group', { name: `Question ${outcome.toLowerCase()}`, exact: true });

function occurrences(texts: string[], text: string): number {
  return texts.filter((t) => t === text).length;
}

function expectRecord(record: QuestionRecord | undefined, status: QuestionRecord['status'], answers?: Answers) {
  expect(record?.status).toBe(status);
  if (answers) expect(record?.answers).toEqual(answers);
}

const stepQuestion = (k: number): QuestionItemInput[] => [
  { id: 'way', header: `Step ${k}`, question: `Which way for step ${k}?`, options: [{ label: 'Left' }, { label: 'Right' }] },
];

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

function parseFrame(message: string | Buffer): { type?: string; id?: string | null; method?: string; ok?: boolean } | null {
  if (typeof message !== 'string') return null;
  try {
    return JSON.parse(message) as { type?: string; id?: string; method?: string; ok?: boolean };
  } catch {
    return null;
  }
}
