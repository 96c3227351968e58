import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChatMessage } from '../protocol/index.ts';
import { formatAsyncAnswerText } from '../answers/async-reply.ts';
import { demoIntent, deployReport, startDemoAgent, SLOW_REPLY, type DemoAgent } from './demo-agent.ts';
import { connect, type Agent } from './sdk.ts';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';

describe('demoIntent', () => {
  it('reads the first keyword in the order deploy, async, fail, slow, and timeout=N', () => {
    expect(demoIntent('deploy please')).toEqual({ kind: 'deploy' });
    expect(demoIntent('Deploy now, timeout=30')).toEqual({ kind: 'deploy', timeoutSeconds: 30 });
    expect(demoIntent('ASYNC lunch timeout=45')).toEqual({ kind: 'async', timeoutSeconds: 45 });
    expect(demoIntent('make it fail')).toEqual({ kind: 'fail' });
    expect(demoIntent('go slow timeout=30')).toEqual({ kind: 'slow' });
    expect(demoIntent('hello')).toEqual({ kind: 'echo' });
  });

  it('[T2] reports answers and no_answer in words a person reads', () => {
    expect(deployReport({ status: 'answered', answers: { answers: { env: ['Staging (Recommended)'], notify: ['Email', 'Slack'] } } })).toBe(
      'Got: Environment: Staging (Recommended); Notify: Email, Slack',
    );
    expect(deployReport({ status: 'no_answer', reason: 'skipped' })).toBe('No answer (skipped) — continuing with my own judgment');
  });
});

describe('the demo agent against a real gateway', () => {
  let t: TestGateway;
  let agent: Agent;
  let demo: DemoAgent;
  let sessionKey: string;
  let n = 0;

  const send = (message: string, replyTo?: { questionId: string; answers?: Record<string, string[]> }) =>
    t.operator.request('chat.send', { sessionKey, message, idempotencyKey: `demo-test-${++n}-${Date.now()}`, ...(replyTo ? { replyTo } : {}) });
  const assistantSays = (match: (text: string) => boolean) =>
    nextEvent(t.operator, 'chat', (p) => p.sessionKey === sessionKey && p.message.role === 'assistant' && p.state === 'final' && match(p.message.text));

  beforeEach(async () => {
    t = await startTestGateway();
    agent = await connect({ url: t.url, token: t.agentToken, name: 'demo' });
    demo = await startDemoAgent({ agent, log: () => undefined, slowStepMs: 50 });
    sessionKey = (await t.operator.request('sessions.create', { title: 'demo' })).session.key;
  });
  afterEach(async () => {
    await demo.close();
    agent.close();
    await t.close();
  });

  it('[T2] deploy: asks the two-question prompt and reports the answer into the chat', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    await send('deploy please');
    const { question } = await requested;
    expect(question).toMatchObject({ sessionKey, mode: 'blocking', status: 'pending' });
    expect(question.runId).toBeTruthy();
    expect(question.expiresAtMs! - question.createdAtMs).toBe(900_000);
    expect(question.questions).toEqual([
      {
        id: 'env',
        header: 'Environment',
        question: 'Where should I deploy?',
        options: [
          { label: 'Staging (Recommended)', description: 'Safe to try out; nobody depends on it.' },
          { label: 'Production', description: 'Live for every user.' },
        ],
      },
      {
        id: 'notify',
        header: 'Notify',
        question: 'Who should I notify when the deploy is done?',
        options: [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }],
        multiSelect: true,
      },
    ]);
    const report = assistantSays((text) => text.startsWith('Got:'));
    const ended = nextEvent(t.operator, 'run.ended', (p) => p.runId === question.runId);
    await t.operator.request('question.resolve', { id: question.id, answers: { env: ['Staging (Recommended)'], notify: ['Email', 'Slack'] } });
    expect((await report).message.text).toBe('Got: Environment: Staging (Recommended); Notify: Email, Slack');
    expect(await ended).toMatchObject({ stopReason: 'end_turn', sessionKey });
  });

  it('[T2] deploy: a skip is reported as no answer, and timeout=N sets the wait', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    await send('deploy timeout=30');
    const { question } = await requested;
    expect(question.expiresAtMs! - question.createdAtMs).toBe(30_000);
    const report = assistantSays((text) => text.startsWith('No answer'));
    await t.operator.request('question.resolve', { id: question.id, skip: true });
    expect((await report).message.text).toBe('No answer (skipped) — continuing with my own judgment');
  });

  it('[PT5] deploy: a plain reply in the chat answers the prompt; the waiting run reports it and no other run starts', async () => {
    const runs: string[] = [];
    const off = t.operator.on('run.started', (p) => runs.push(p.runId));
    const requested = nextEvent(t.operator, 'question.requested');
    await send('deploy');
    const { question } = await requested;
    const report = assistantSays((text) => text.startsWith('Got:'));
    await send('1: 2\n2: 1, 3', { questionId: question.id });
    expect((await report).message.text).toBe('Got: Environment: Production; Notify: Email, Pager');
    // A later message's run shows that the reply, handled before it, opened none.
    const echo = assistantSays((text) => text === 'Echo: after');
    await send('after');
    await echo;
    off();
    expect(runs).toHaveLength(2);
  });

  it('[Q9] async: asks the lunch question, ends its run at once, and acknowledges the reply', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const ended = nextEvent(t.operator, 'run.ended', (p) => p.sessionKey === sessionKey);
    await send('async');
    const { question } = await requested;
    expect(question).toMatchObject({ mode: 'async', expiresAtMs: null, questions: [{ id: 'lunch', header: 'Lunch' }] });
    expect(question.questions[0].options.map((o) => o.label)).toEqual(['Pizza (Recommended)', 'Sushi', 'Salad']);
    expect(await ended).toMatchObject({ runId: question.runId, stopReason: 'end_turn' });

    const thanks = assistantSays((text) => text.startsWith('Thanks'));
    const answers = { lunch: ['Sushi'] };
    await send(formatAsyncAnswerText(question.questions, answers), { questionId: question.id, answers });
    expect((await thanks).message.text).toBe('Thanks — Lunch: Sushi');
  });

  it('fail: ends its run with error', async () => {
    const ended = nextEvent(t.operator, 'run.ended', (p) => p.sessionKey === sessionKey);
    await send('fail');
    expect(await ended).toMatchObject({ stopReason: 'error' });
  });

  it('slow: streams deltas, then the final reply', async () => {
    const seen: { state: string; text: string }[] = [];
    const off = t.operator.on('chat', (p) => {
      if (p.sessionKey === sessionKey && p.message.role === 'assistant') seen.push({ state: p.state, text: p.message.text });
    });
    const ended = nextEvent(t.operator, 'run.ended', (p) => p.sessionKey === sessionKey);
    await send('slow');
    expect(await ended).toMatchObject({ stopReason: 'end_turn' });
    off();
    const deltas = seen.filter((s) => s.state === 'delta');
    expect(deltas.length).toBeGreaterThanOrEqual(5);
    // Every delta carries the text so far, so each one starts the next.
    deltas.forEach((d, i) => expect((deltas[i + 1]?.text ?? SLOW_REPLY).startsWith(d.text)).toBe(true));
    expect(seen[seen.length - 1]).toEqual({ state: 'final', text: SLOW_REPLY });
    const { messages } = await t.operator.request('chat.history', { sessionKey });
    expect(messages.filter((m: ChatMessage) => m.role === 'assistant').map((m) => m.text)).toEqual([SLOW_REPLY]);
  });

  it('echoes anything else', async () => {
    const echo = assistantSays((text) => text.startsWith('Echo:'));
    await send('hello there');
    expect((await echo).message.text).toBe('Echo: hello there');
  });

  it('[T5] closing the demo agent cancels its pending question', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    await send('deploy');
    const { question } = await requested;
    const resolved = nextEvent(t.operator, 'question.resolved', (p) => p.id === question.id);
    const ended = nextEvent(t.operator, 'run.ended', (p) => p.runId === question.runId);
    await demo.close();
    expect(await resolved).toMatchObject({ status: 'cancelled' });
    expect(await ended).toMatchObject({ stopReason: 'aborted' });
  });
});
