import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AskdockError, type HelloOk } from '../protocol/index.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { testConfig } from '../testing/gateway-harness.ts';
import { connect, type Agent, type UserMessage } from './sdk.ts';
import { eventually, nextEvent, nextHello, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import type { AskUserInput } from './ask-user.ts';

const DEPLOY: AskUserInput = {
  questions: [{ id: 'deploy_target', header: 'Deploy', question: 'Where should I deploy?', options: [{ label: 'Staging' }, { label: 'Production' }] }],
};

/** The agent stays away after a drop until the test brings it back (reconnectNow): no race with its backoff. */
const STAY_AWAY = { initialMs: 3_600_000, maxMs: 3_600_000 };

let t: TestGateway;
let agent: Agent;
let keys = 0;

beforeEach(async () => {
  t = await startTestGateway();
  agent = await connect({ url: t.url, token: t.agentToken, backoff: STAY_AWAY });
});
afterEach(async () => {
  vi.restoreAllMocks();
  agent.close();
  await t.close();
});

/** Starts the test over on a gateway started with `opts`. */
async function restart(opts: Parameters<typeof startTestGateway>[0]) {
  agent.close();
  await t.close();
  t = await startTestGateway(opts);
  agent = await connect({ url: t.url, token: t.agentToken, backoff: STAY_AWAY });
}

/** The sessions the agent reads with chat.history from now on; reading `refused` fails with FORBIDDEN. */
function historyReads(refused?: string): string[] {
  const reads: string[] = [];
  const request = agent.client.request.bind(agent.client);
  vi.spyOn(agent.client, 'request').mockImplementation(((method: string, params: { sessionKey: string }) => {
    if (method !== 'chat.history') return request(method as never, params as never);
    reads.push(params.sessionKey);
    if (params.sessionKey === refused) return Promise.reject(new AskdockError('FORBIDDEN', 'not yours'));
    return request(method as never, params as never);
  }) as never);
  return reads;
}

async function send(sessionKey: string, message: string, replyTo?: { questionId: string; answers: Record<string, string[]> }) {
  await t.operator.request('chat.send', { sessionKey, message, idempotencyKey: `missed-key-${++keys}`, ...(replyTo ? { replyTo } : {}) });
}

async function newSession(title: string): Promise<string> {
  return (await t.operator.request('sessions.create', { title })).session.key;
}

/** Brings the agent back after the gateway forgot every event but the newest: its cursor cannot be resumed (R2). */
async function comeBackTooLate(): Promise<HelloOk> {
  // One more event, so the newest one kept lies at least two past the agent's cursor, whatever it missed.
  await newSession('while away');
  await t.gateway.store.pruneEvents(Date.now() + 60_000, 1);
  const back = nextHello(agent.client);
  agent.client.reconnectNow();
  return back;
}

/** Sends a message once the agent is back and resolves once the agent was handed it: everything missed came before it. */
async function sendAfterReturn(got: UserMessage[], sessionKey: string): Promise<void> {
  await send(sessionKey, 'back');
  await eventually(() => (got.some((m) => m.text === 'back') ? true : undefined));
}

describe('onUserMessage after a reconnect the gateway cannot replay', () => {
  it('[R2][C6] hands over every user message missed while away, once and in order, across sessions', async () => {
    const one = await newSession('one');
    const two = await newSession('two');
    const got: UserMessage[] = [];
    await agent.onUserMessage((m) => got.push(m));
    await send(one, 'before');
    await eventually(() => (got.length === 1 ? true : undefined));

    agent.client.dropConnection();
    await send(one, 'away 1');
    await send(two, 'away 2');
    await send(one, 'away 3');
    expect((await comeBackTooLate()).resumed).toBe(false);
    await sendAfterReturn(got, two);

    expect(got.map((m) => `${m.sessionKey === one ? 'one' : 'two'}: ${m.text}`)).toEqual([
      'one: before',
      'one: away 1',
      'two: away 2',
      'one: away 3',
      'two: back',
    ]);
  });

  it('[R2][Q9] hands over the async answer given while away to a one-session subscription', async () => {
    const session = await newSession('async');
    const got: UserMessage[] = [];
    await agent.onUserMessage((m) => got.push(m), { sessionKey: session });
    const { id } = await agent.askUserAsync(DEPLOY, { sessionKey: session });

    agent.client.dropConnection();
    await send(session, '> Deploy\nProduction', { questionId: id, answers: { deploy_target: ['Production'] } });
    expect((await comeBackTooLate()).resumed).toBe(false);
    await sendAfterReturn(got, session);

    expect(got.map((m) => [m.text, m.replyTo?.questionId])).toEqual([
      ['> Deploy\nProduction', id],
      ['back', undefined],
    ]);
  });

  it('[R2][C3] reads a long absence back page by page', async () => {
    const session = await newSession('long');
    const got: UserMessage[] = [];
    await agent.onUserMessage((m) => got.push(m));

    agent.client.dropConnection();
    const away = Array.from({ length: 230 }, (_, i) => `away ${i + 1}`);
    for (const text of away) await send(session, text);
    expect((await comeBackTooLate()).resumed).toBe(false);
    await sendAfterReturn(got, session);

    expect(got.map((m) => m.text)).toEqual([...away, 'back']);
  });
});

describe('which sessions a reconnect the gateway cannot replay reads back', () => {
  it('[R2][C1] reads the sessions a hello-ok cut to fit left out, listed with sessions.list', async () => {
    await restart({ config: { ...testConfig, policy: { maxPayload: 1500 } } });
    const sessions = [];
    for (let i = 1; i <= 12; i++) sessions.push(await newSession(`session ${i}`));
    const got: UserMessage[] = [];
    await agent.onUserMessage((m) => got.push(m));

    agent.client.dropConnection();
    for (const [i, key] of sessions.entries()) await send(key, `away ${i + 1}`);
    const back = await comeBackTooLate();
    expect([back.resumed, back.snapshot.hasMore]).toEqual([false, true]);
    await sendAfterReturn(got, sessions[0]);

    expect(got.map((m) => m.text)).toEqual([...sessions.map((_, i) => `away ${i + 1}`), 'back']);
  });

  it('[R2][C3] hands over what the sessions it could read missed, and warns naming the one it could not', async () => {
    const one = await newSession('one');
    const two = await newSession('two');
    const got: UserMessage[] = [];
    await agent.onUserMessage((m) => got.push(m));
    historyReads(two);
    const warnings: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation(((text: string) => warnings.push(text)) as never);

    agent.client.dropConnection();
    await send(one, 'away 1');
    await send(two, 'away 2');
    expect((await comeBackTooLate()).resumed).toBe(false);
    await sendAfterReturn(got, one);

    expect(got.map((m) => m.text)).toEqual(['away 1', 'back']);
    expect(warnings.join('')).toContain(two);
  });

  it('[R2][C3] does not read the sessions with no message since the last one the agent saw', async () => {
    const clock = new FakeClock();
    await restart({ clock });
    const quiet = await newSession('quiet');
    const busy = await newSession('busy');
    const got: UserMessage[] = [];
    await agent.onUserMessage((m) => got.push(m));
    await send(quiet, 'long ago');
    clock.advance(60_000);
    await send(busy, 'before');
    await eventually(() => (got.length === 2 ? true : undefined));
    const reads = historyReads();

    agent.client.dropConnection();
    await send(busy, 'away');
    expect((await comeBackTooLate()).resumed).toBe(false);
    await sendAfterReturn(got, busy);

    expect(got.map((m) => m.text)).toEqual(['long ago', 'before', 'away', 'back']);
    expect(reads).toEqual([busy]);
  });
});

describe('askUser after a reconnect the gateway cannot replay', () => {
  it('[R2][T2] resolves with the answer given while away: the wait reads the record, not replayed events', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const pending = agent.askUser(DEPLOY);
    const { question } = await requested;
    agent.client.dropConnection();
    await t.operator.request('question.resolve', { id: question.id, answers: { deploy_target: ['Production'] } });
    expect((await comeBackTooLate()).resumed).toBe(false);
    await expect(pending).resolves.toEqual({ status: 'answered', answers: { answers: { deploy_target: ['Production'] } } });
  });
});
