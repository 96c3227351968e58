import { afterEach, beforeEach } from 'vitest';
import type { QuestionItemInput, QuestionRecord } from '../../protocol/index.ts';
import type { Clock } from '../../gateway/infra/clock.ts';
import type { GatewayConfig } from '../../gateway/config.ts';
import type { Store } from '../../gateway/store/types.ts';
import { startTestGateway, testConfig, type TestGateway } from '../gateway-harness.ts';
import type { TestClient } from '../ws-client.ts';
import type { ChannelName } from '../../gateway/channels/registry.ts';
import { until, type FakeHttp } from './fake-http.ts';
import { memoryLogger } from '../../gateway/infra/logger.ts';

/** A bot message as a test sees it on any platform: its text and its buttons' labels, and its code block's content (X2). */
export type SeenMessage = { ref: string; text: string; buttons: string[]; forceReply?: boolean; code?: string };

/** What the shared scenarios need from a platform's fake: play a user, read what the bot posted. */
export interface PlatformDriver {
  readonly name: ChannelName;
  start(): Promise<void>;
  /** Webhook platforms post to the gateway: its `http://H:N` once it runs. */
  attach?(gatewayUrl: string): void;
  /** The `channels.<name>` config section, with these platform users mapped. */
  config(users: Record<string, string>): Record<string, unknown>;
  /** `replyTo`: the bot message the user replies to (Telegram's reply, a Slack thread under it, Discord's reply). */
  userSays(user: string, text: string, replyTo?: { ref: string }): Promise<void>;
  /** `from`: the conversation the press arrives from (default: the prompt's own). */
  press(user: string, message: SeenMessage, label: string, from?: string): Promise<void>;
  /** What presses were told (a refusal's notice), oldest first. */
  notices(): string[];
  /** A conversation other than the one the scenarios write in. */
  readonly otherConversation: string;
  messages(): SeenMessage[];
  /** The fake's API, and the names it records posting and editing under (to script outages and 429s). */
  readonly api: { http: FakeHttp; post: string; edit: string };
  /** The platform's own user ids for the scenario's people. */
  readonly ids: { alice: string; bob: string; carol: string };
  close(): Promise<void>;
}

export type ChannelWorld = {
  t: TestGateway;
  agent: TestClient;
  admin: TestClient;
  logs: string[];
  announced: string[];
  /** Alice says `text`; resolves with the session her conversation became. */
  sessionFromFirstMessage(text: string): Promise<string>;
  /** The agent opens a run in the session and asks. */
  ask(sessionKey: string, questions: QuestionItemInput[], extra?: { mode?: 'async'; noRun?: boolean; timeoutMs?: number }): Promise<string>;
  question(id: string): Promise<QuestionRecord>;
  /** Closes the gateway; `restart` keeps the fake platform and the database folder for the next world. */
  close(opts?: { restart?: boolean }): Promise<void>;
};

/** Gateway with the platform configured (alice -> guest, bob -> guest2, carol unmapped), an agent and an admin. */
/** `config`: what the test's gateway config has besides the usual (routing, names of the identities). */
/** `store`: one the test wraps (to make a group fail); the test closes it. */
export async function startChannelWorld(driver: PlatformDriver, opts: { dir?: string; clock?: Clock; config?: Partial<GatewayConfig>; store?: Store } = {}): Promise<ChannelWorld> {
  if (!opts.dir) await driver.start();
  const { log, lines: logs } = memoryLogger();
  const announced: string[] = [];
  const users = { [driver.ids.alice]: 'guest', [driver.ids.bob]: 'guest2' };
  const t = await startTestGateway({
    config: { ...testConfig, ...opts.config, channels: { [driver.name]: driver.config(users) } },
    log,
    announce: (line) => announced.push(line),
    channelRetry: { baseDelayMs: 50, maxDelayMs: 400 },
    ...(opts.dir ? { dir: opts.dir } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.store ? { store: opts.store } : {}),
  });
  driver.attach?.(t.gw.url);
  await until(() => announced.includes(`askdock channel ${driver.name} ready`), `${driver.name} ready`);
  const agent = await t.connect('agent');
  const admin = await t.connect('admin');
  const runs = new Map<string, string>();
  return {
    t,
    agent,
    admin,
    logs,
    announced,
    async sessionFromFirstMessage(text) {
      const before = new Set((await t.gw.store.listSessions()).map((s) => s.key));
      await driver.userSays(driver.ids.alice, text);
      const session = await until(async () => (await t.gw.store.listSessions()).find((s) => !before.has(s.key)), 'the conversation session');
      return session.key;
    },
    async ask(sessionKey, questions, extra = {}) {
      let runId = runs.get(sessionKey);
      if (!runId && !extra.noRun) {
        runId = (await agent.call('run.start', { sessionKey })).runId;
        runs.set(sessionKey, runId);
      }
      const asked = await agent.call('question.request', {
        sessionKey,
        questions,
        ...(extra.noRun ? {} : { runId }),
        ...(extra.mode ? { mode: extra.mode } : {}),
        ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}),
      });
      return asked.id;
    },
    async question(id) {
      return (await admin.call('question.get', { id })).question;
    },
    async close(closeOpts) {
      // The gateway harness treats logged failures as errors; the channels' retries log on purpose.
      logs.length = 0;
      await t.close({ keepDir: !!closeOpts?.restart });
      if (!closeOpts?.restart) await driver.close();
    },
  };
}

/** For the tests of the calling describe block: each gets a new driver made by `make` and a world on it, closed after. */
export function channelWorldPerTest<D extends PlatformDriver>(make: () => D): { readonly driver: D; readonly w: ChannelWorld } {
  let current: { driver: D; w: ChannelWorld } | undefined;
  beforeEach(async () => {
    const driver = make();
    current = { driver, w: await startChannelWorld(driver) };
  });
  afterEach(async () => {
    await current?.w.close();
    current = undefined;
  });
  const now = () => {
    if (!current) throw new Error('channelWorldPerTest: no world outside a test');
    return current;
  };
  return {
    get driver() {
      return now().driver;
    },
    get w() {
      return now().w;
    },
  };
}
