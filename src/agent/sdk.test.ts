import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AskdockError } from '../protocol/index.ts';
import { connect, type Agent } from './sdk.ts';
import { eventually, fastClock, nextEvent, nextHello, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import type { AskUserInput } from './ask-user.ts';
import type { GatewayConfig } from '../gateway/config.ts';

/** One set of identities for gateways that must accept the same tokens. */
const SHARED_CONFIG: GatewayConfig = {
  identities: [
    { id: 'op', token: 'operator-token-0123456789ab', role: 'operator', scopes: ['operator.admin'] },
    { id: 'bot', token: 'agent-token-0123456789abcd', role: 'agent', scopes: ['agent.run'] },
  ],
};

const DEPLOY: AskUserInput = {
  questions: [
    {
      id: 'deploy_target',
      header: 'Deploy',
      question: 'Where should I deploy?',
      options: [{ label: 'Staging (Recommended)' }, { label: 'Production' }],
    },
  ],
};

/** Drops the agent's socket and resolves once its client has completed the next handshake. */
async function dropAndReconnect(agent: Agent): Promise<void> {
  const reconnected = nextHello(agent.client);
  agent.client.dropConnection();
  await reconnected;
}

/**
 * A round trip on the agent's own new connection. What its client sent on reconnecting (a kept wait, a re-subscription)
 * went out on that socket before this request, and the gateway takes one connection's requests up in order, so once this
 * is answered the gateway has those too: no sleep guessing how long that takes.
 */
async function afterReconnectSends(agent: Agent, sessionKey?: string): Promise<void> {
  if (sessionKey) await agent.client.request('chat.history', { sessionKey });
  else await agent.client.request('question.list', {});
}

describe('SDK against a real gateway', () => {
  let t: TestGateway;
  let agent: Agent;

  beforeEach(async () => {
    t = await startTestGateway();
    agent = await connect({ url: t.url, token: t.agentToken, name: 'sdk-test', backoff: { initialMs: 50, maxMs: 200 } });
  });
  afterEach(async () => {
    agent.close();
    await t.close();
  });

  it('[T2] resolves answered with the T2 envelope and records session and run', async () => {
    const { session } = await t.operator.request('sessions.create', { title: 'sdk' });
    const runId = await agent.startRun(session.key);
    const requested = nextEvent(t.operator, 'question.requested');
    const pending = agent.askUser(DEPLOY, { sessionKey: session.key, runId });
    const { question } = await requested;
    expect(question).toMatchObject({ sessionKey: session.key, runId, mode: 'blocking', status: 'pending' });
    expect(question.expiresAtMs! - question.createdAtMs).toBe(900_000);
    await t.operator.request('question.resolve', { id: question.id, answers: { deploy_target: ['staging (recommended)'] } });
    await expect(pending).resolves.toEqual({ status: 'answered', answers: { answers: { deploy_target: ['Staging (Recommended)'] } } });
  });

  it('[T2] keeps free text and several values as given', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const pending = agent.askUser({
      questions: [
        { id: 'notify', header: 'Notify', question: 'Who?', options: [{ label: 'Email' }, { label: 'Slack' }], multiSelect: true },
      ],
    });
    const { question } = await requested;
    expect(question.sessionKey).toBeUndefined();
    await t.operator.request('question.resolve', { id: question.id, answers: { notify: ['Email', 'the whole team'] } });
    await expect(pending).resolves.toEqual({ status: 'answered', answers: { answers: { notify: ['Email', 'the whole team'] } } });
  });

  it('[T2] resolves no_answer skipped when the person skips', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const pending = agent.askUser(DEPLOY);
    const { question } = await requested;
    await t.operator.request('question.resolve', { id: question.id, skip: true });
    await expect(pending).resolves.toEqual({ status: 'no_answer', reason: 'skipped' });
  });

  it('[T1] sends the clamped timeout to the gateway', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const pending = agent.askUser({ ...DEPLOY, timeoutSeconds: 5 });
    const { question } = await requested;
    expect(question.expiresAtMs! - question.createdAtMs).toBe(30_000);
    await t.operator.request('question.resolve', { id: question.id, skip: true });
    await pending;
  });

  it('[T3] throws INVALID_REQUEST listing every problem, and asks nothing', async () => {
    const err = await agent
      .askUser({
        questions: [
          { id: 'Bad', header: 'H', question: 'Q?', options: [{ label: 'A' }, { label: 'Other' }] },
          { id: 'b', header: 'H', question: '', options: [{ label: 'A' }] },
        ],
        timeoutSeconds: 1.5,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AskdockError);
    expect((err as AskdockError).code).toBe('INVALID_REQUEST');
    expect(((err as AskdockError).details as { path: string }[]).map((p) => p.path)).toEqual([
      'questions[0].id',
      'questions[0].options[1].label',
      'questions[1].options',
      'questions[1].question',
      'timeoutSeconds',
    ]);
    const { questions } = await t.operator.request('question.list', {});
    expect(questions).toHaveLength(0);
  });

  it('[T5] an aborted signal cancels the pending question at the gateway within a second', async () => {
    const controller = new AbortController();
    const requested = nextEvent(t.operator, 'question.requested');
    const pending = agent.askUser(DEPLOY, { signal: controller.signal });
    const { question } = await requested;
    const resolved = nextEvent(t.operator, 'question.resolved', (p) => p.id === question.id);
    const sent = vi.spyOn(agent.client, 'request');
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    // At once: the cancel was sent before the AbortError reached the caller, with no timer between (T5's second is
    // the SDK's; measured as an order, not on this machine's clock).
    expect(sent.mock.calls.filter(([method]) => method === 'question.resolve').map(([, params]) => params)).toEqual([{ id: question.id, cancel: true, reason: 'aborted' }]);
    // Sent by the asker (Q7's grace would say requester-inactive).
    const event = await resolved;
    expect(event).toMatchObject({ status: 'cancelled', reason: 'aborted' });
    const { question: record } = await t.operator.request('question.get', { id: question.id });
    expect(record).toMatchObject({ status: 'cancelled', reason: 'aborted' });
  });

  it('[T5] an already aborted signal asks nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(agent.askUser(DEPLOY, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    const { questions } = await t.operator.request('question.list', {});
    expect(questions).toHaveLength(0);
  });

  it('[P7] survives a dropped connection mid-wait: same question, one answer', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const pending = agent.askUser(DEPLOY);
    const { question } = await requested;
    await dropAndReconnect(agent);
    // The re-sent wait must be at the gateway before the answer, or the answer would be read by question.get only.
    await afterReconnectSends(agent);
    await t.operator.request('question.resolve', { id: question.id, answers: { deploy_target: ['Production'] } });
    await expect(pending).resolves.toEqual({ status: 'answered', answers: { answers: { deploy_target: ['Production'] } } });
    const { questions } = await t.operator.request('question.list', {});
    expect(questions.map((q) => q.id)).toEqual([question.id]);
  });

  it('[P7] an answer given while the agent is disconnected still arrives', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const pending = agent.askUser(DEPLOY);
    const { question } = await requested;
    agent.client.dropConnection();
    await t.operator.request('question.resolve', { id: question.id, answers: { deploy_target: ['Production'] } });
    await expect(pending).resolves.toEqual({ status: 'answered', answers: { answers: { deploy_target: ['Production'] } } });
    const { questions } = await t.operator.request('question.list', {});
    expect(questions).toHaveLength(1);
  });

  it('[P7] a question.request cut off by a dropped connection is sent again with the same id: one question', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const pending = agent.askUser(DEPLOY, { id: 'q-dropped-request' });
    // The request frame is already on its way; its answer is lost with the socket.
    agent.client.dropConnection();
    const { question } = await requested;
    expect(question.id).toBe('q-dropped-request');
    await t.operator.request('question.resolve', { id: question.id, answers: { deploy_target: ['Production'] } });
    await expect(pending).resolves.toEqual({ status: 'answered', answers: { answers: { deploy_target: ['Production'] } } });
    const { questions } = await t.operator.request('question.list', {});
    expect(questions.map((q) => q.id)).toEqual(['q-dropped-request']);
  });

  it('[Q9] askUserAsync returns at once with an async record that does not expire', async () => {
    const { session } = await t.operator.request('sessions.create', {});
    const runId = await agent.startRun(session.key);
    const { id, expiresAtMs } = await agent.askUserAsync(DEPLOY, { sessionKey: session.key, runId });
    expect(expiresAtMs).toBeNull();
    const { question } = await t.operator.request('question.get', { id });
    expect(question).toMatchObject({ mode: 'async', status: 'pending', sessionKey: session.key, runId });
    const timed = await agent.askUserAsync({ ...DEPLOY, timeoutSeconds: 60 }, { sessionKey: session.key });
    expect(timed.expiresAtMs).not.toBeNull();
    await expect(agent.askUserAsync({ questions: [] })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('[C6] onUserMessage hands over user messages; say, stream and endRun reach the session', async () => {
    const { session } = await t.operator.request('sessions.create', {});
    const got: string[] = [];
    await agent.onUserMessage((m) => got.push(m.text));
    await t.operator.request('chat.send', { sessionKey: session.key, message: 'hello agent', idempotencyKey: 'key-00000001' });
    await eventually(() => (got.length ? true : undefined));
    expect(got).toEqual(['hello agent']);

    const runId = await agent.startRun(session.key);
    const ended = nextEvent(t.operator, 'run.ended', (p) => p.runId === runId);
    await agent.stream(runId, 'Hel');
    await agent.stream(runId, 'Hello the');
    await agent.say(runId, 'Hello there');
    await agent.endRun(runId, 'end_turn');
    expect(await ended).toMatchObject({ stopReason: 'end_turn', sessionKey: session.key });
    const { messages } = await t.operator.request('chat.history', { sessionKey: session.key });
    expect(messages.map((m) => [m.role, m.text])).toEqual([
      ['user', 'hello agent'],
      ['assistant', 'Hello there'],
    ]);
    // Its own assistant messages are not handed back as user messages.
    expect(got).toEqual(['hello agent']);
  });

  it('[C6] keeps receiving user messages after a dropped connection to the same gateway', async () => {
    const { session } = await t.operator.request('sessions.create', {});
    const got: string[] = [];
    await agent.onUserMessage((m) => got.push(m.text), { sessionKey: session.key });
    await dropAndReconnect(agent);
    await afterReconnectSends(agent, session.key);
    await t.operator.request('chat.send', { sessionKey: session.key, message: 'after the drop', idempotencyKey: 'key-00000002' });
    await eventually(() => (got.length ? true : undefined));
    expect(got).toEqual(['after the drop']);
  });
});

describe('C6 across gateways', () => {
  it('[C6][D4] subscribes again on the next gateway of its list, which never heard of its subscription', async () => {
    // Two gateways on databases of their own: the second keeps nothing of what the agent did on the first, so only the
    // SDK subscribing again on the new connection brings it the second gateway's user messages.
    const first = await startTestGateway({ config: SHARED_CONFIG });
    const second = await startTestGateway({ config: SHARED_CONFIG });
    const agent = await connect({ url: [first.url, second.url], token: first.agentToken, backoff: { initialMs: 50, maxMs: 200 } });
    try {
      expect(agent.client.url).toBe(first.url);
      const got: string[] = [];
      await agent.onUserMessage((m) => got.push(m.text));
      const movedOn = nextHello(agent.client);
      await first.close();
      await movedOn;
      expect(agent.client.url).toBe(second.url);
      await afterReconnectSends(agent);
      const { session } = await second.operator.request('sessions.create', {});
      await second.operator.request('chat.send', { sessionKey: session.key, message: 'on the second gateway', idempotencyKey: 'key-00000003' });
      await eventually(() => (got.length ? true : undefined), 15_000);
      expect(got).toEqual(['on the second gateway']);
    } finally {
      agent.close();
      await second.close();
    }
  });
});

describe('connect', () => {
  it('[P4] rejects a bad token with UNAUTHORIZED instead of retrying', async () => {
    const t = await startTestGateway();
    try {
      await expect(connect({ url: t.url, token: 'not-a-real-token' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    } finally {
      await t.close();
    }
  });

  it('[P7] rejects fast with UNAVAILABLE when nothing listens: on the refusal, not on the connect timeout', async () => {
    // A timeout longer than the test's own: only a rejection on the refusal itself can pass.
    const err = await connect({ url: 'ws://127.0.0.1:9/ws', token: 'whatever-token', connectTimeoutMs: 3_600_000 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'UNAVAILABLE' });
    expect(String((err as Error).message)).toMatch(/ECONNREFUSED/);
    expect(String((err as Error).message)).not.toMatch(/within/);
  });
});

describe('expiry', () => {
  it('[T2] resolves no_answer expired when nobody answers in time', async () => {
    // 30 s of gateway time pass in 0.3 s: the clamp stays real, the wait does not.
    const t = await startTestGateway({ clock: fastClock(100), requesterGraceMs: 3_600_000 });
    const agent = await connect({ url: t.url, token: t.agentToken });
    try {
      // A real 30 s wait would outlast the test's own timeout, so passing shows the gateway's clock set the pace.
      await expect(agent.askUser({ ...DEPLOY, timeoutSeconds: 30 })).resolves.toEqual({ status: 'no_answer', reason: 'expired' });
    } finally {
      agent.close();
      await t.close();
    }
  });
});
