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
import { connect, type Agent, type AskOptions } from '../src/agent/sdk.ts';
import type { GatewayClient } from '../src/client/client.ts';
import { createNodeClient } from '../src/client/node.ts';
import { REPO } from '../src/testing/gateway-child.ts';
import { RestartableGateway } from '../src/testing/restartable-gateway.ts';
import { type Answers, type QuestionItemInput, type QuestionRecord } from '../src/protocol/index.ts';
import { type GatewayConfig } from '../src/gateway/config.ts';

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
export const RECONNECT_MS = 40_000;

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

export const test = base.extend<{ chaos: Chaos }, { chaosGateway: RestartableGateway }>({
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

export const connection = (page: Page) => page.getByRole('status', { name: 'Connection' });

export function occurrences(texts: string[], text: string): number {
  return texts.filter((t) => t === text).length;
}

export function expectRecord(record: QuestionRecord | undefined, status: QuestionRecord['status'], answers?: Answers) {
  expect(record?.status).toBe(status);
  if (answers) expect(record?.answers).toEqual(answers);
}

export const stepQuestion = (k: number): QuestionItemInput[] => [
  { id: 'way', header: `Step ${k}`, question: `Which way for step ${k}?`, options: [{ label: 'Left' }, { label: 'Right' }] },
];

export function parseFrame(message: string | Buffer): { type?: string; id?: string | null; method?: string; ok?: boolean } | null {
  if (typeof message !== 'string') return null;
  try {
    return JSON.parse(message) as { type?: string; id?: string; method?: string; ok?: boolean };
  } catch {
    return null;
  }
}

export { expect };
