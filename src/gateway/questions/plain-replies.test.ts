import { afterEach, describe, expect, it } from 'vitest';
import type { ClientMode } from '../../protocol/index.ts';
import { createMemoryStore } from '../store/memory.ts';
import type { Store } from '../store/types.ts';
import { connectionSurface, replySurface } from './surface.ts';
import { failure, item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { roundTrips } from '../../testing/barrier.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const env = item({ options: [{ label: 'Staging (Recommended)' }, { label: 'Production' }] });
const notify = item({ id: 'notify', header: 'Notify', question: 'Who to tell?', multiSelect: true, options: [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }] });

async function setup(opts: Parameters<typeof startTestGateway>[0] = {}, mode: ClientMode = 'tui') {
  t = await startTestGateway(opts);
  const person = await t.connect('admin', { mode });
  const agent = await t.connect('agent', { mode: 'agent' });
  const { session } = await person.call('sessions.create', {});
  const { runId } = await agent.call('run.start', { sessionKey: session.key });
  const ask = (questions = [env, notify]) => agent.call('question.request', { sessionKey: session.key, runId, questions });
  let n = 0;
  const reply = (questionId: string, message: string, key = `plain-reply-${++n}`) =>
    person.call('chat.send', { sessionKey: session.key, message, idempotencyKey: key, replyTo: { questionId } });
  return { person, agent, session, runId, ask, reply };
}

describe('[PT5] plain replies answer blocking questions through chat.send', () => {
  it('[PT5] a reply read by PT1-PT3 answers the run\'s question in the transaction that saves the message, surface tui', async () => {
    const { person, agent, session, ask, reply } = await setup();
    const { id } = await ask();
    const wait = agent.call('question.waitAnswer', { id });
    // The gateway has taken the wait up (a connection's frames are read in order).
    await roundTrips([agent]);
    const sent = await reply(id, '1: 1\nnotify: email, slack');
    expect(await wait).toEqual({ status: 'answered', answers: { env: ['Staging (Recommended)'], notify: ['Email', 'Slack'] } });
    const { question } = await person.call('question.get', { id });
    expect(question).toMatchObject({ status: 'answered', replyMessageId: sent.messageId, resolvedBy: { identity: 'admin', surface: 'tui' } });
    const { messages } = await person.call('chat.history', { sessionKey: session.key });
    expect(messages).toEqual([expect.objectContaining({ id: sent.messageId, text: '1: 1\nnotify: email, slack', replyTo: { questionId: id } })]);
    const resolved = await person.waitEvent('question.resolved', (e) => e.id === id);
    expect(resolved).toMatchObject({ status: 'answered', replyMessageId: sent.messageId });
  });

  it('[PT5] one single-select question takes a number or a label; a resend with the same key is deduped', async () => {
    const { person, ask, reply } = await setup();
    const { id } = await ask([env]);
    const sent = await reply(id, 'production', 'plain-key-same');
    expect((await person.call('question.get', { id })).question.answers).toEqual({ env: ['Production'] });
    expect(await reply(id, 'production', 'plain-key-same')).toEqual({ ...sent, deduped: true });
  });

  it('[PT5] `skip` declines the whole prompt (PT4)', async () => {
    const { person, agent, ask, reply } = await setup();
    const { id } = await ask();
    await reply(id, 'Skip');
    expect(await agent.call('question.waitAnswer', { id })).toEqual({ status: 'skipped' });
    expect((await person.call('question.get', { id })).question.resolvedBy?.surface).toBe('tui');
  });

  it('[PT5] a reply that fits no rule answers QUESTION_INVALID_ANSWER naming the question(s) and saves nothing', async () => {
    const { person, session, ask, reply } = await setup();
    const { id } = await ask();
    const err = await failure(reply(id, '1: staging', 'plain-key-bad'));
    expect(err.code).toBe('QUESTION_INVALID_ANSWER');
    expect(err.details).toEqual([{ questionId: 'notify', problem: expect.stringContaining('left out') }]);
    expect(err.message).toContain('notify');
    expect((await person.call('chat.history', { sessionKey: session.key })).messages).toEqual([]);
    expect((await person.call('question.get', { id })).question.status).toBe('pending');
    // The key was not used up: the corrected reply with the same key answers.
    const ok = await reply(id, '1: staging\n2: 3', 'plain-key-bad');
    expect(ok.deduped).toBe(false);
    expect((await person.call('question.get', { id })).question.answers).toEqual({ env: ['Staging (Recommended)'], notify: ['Pager'] });
  });

  it('[PT5] only questions asked by a run: a blocking question without runId is refused', async () => {
    const { agent, session, reply } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [env] });
    const err = await failure(reply(id, '1'));
    expect(err.code).toBe('INVALID_REQUEST');
    expect(err.details).toEqual([{ path: 'replyTo.questionId', problem: expect.stringContaining('not asked by a run') }]);
  });

  it('[PT5] a terminal question answers QUESTION_ALREADY_TERMINAL and saves nothing', async () => {
    const { person, session, ask, reply } = await setup();
    const { id } = await ask([env]);
    await person.call('question.resolve', { id, skip: true });
    expect((await failure(reply(id, '1'))).code).toBe('QUESTION_ALREADY_TERMINAL');
    expect((await person.call('chat.history', { sessionKey: session.key })).messages).toEqual([]);
  });

  it('[PT5] the message and the answer are one transaction: if the answer cannot be saved, neither is', async () => {
    const inner = createMemoryStore();
    let failUpdates = false;
    const store: Store = {
      ...inner,
      updateQuestion: async (q) => {
        if (failUpdates) throw new Error('disk full');
        await inner.updateQuestion(q);
      },
    };
    const { person, session, ask, reply } = await setup({ store });
    const { id } = await ask([env]);
    failUpdates = true;
    expect((await failure(reply(id, '2'))).code).toBe('UNAVAILABLE');
    failUpdates = false;
    expect((await person.call('chat.history', { sessionKey: session.key })).messages).toEqual([]);
    expect((await person.call('question.get', { id })).question.status).toBe('pending');
    t!.logs.length = 0;
  });

  it.each([
    ['tui', 'tui'],
    ['ui', 'plain-text'],
    ['cli', 'plain-text'],
    ['mcp', 'plain-text'],
  ] as const)('[PT5] the surface is tui from the TUI, plain-text from any other client: %s -> %s', async (mode, surface) => {
    const { person, ask, reply } = await setup({}, mode);
    const { id } = await ask([env]);
    await reply(id, '1');
    expect((await person.call('question.get', { id })).question.resolvedBy?.surface).toBe(surface);
  });
});

describe('[Q1] the surface of an answer whose request names none', () => {
  it('[Q1] question.resolve takes it from the connection\'s client.mode', async () => {
    const { person, ask } = await setup({}, 'tui');
    const { id } = await ask([env]);
    await person.call('question.resolve', { id, answers: { env: ['Production'] } });
    expect((await person.call('question.get', { id })).question.resolvedBy?.surface).toBe('tui');
  });

  it('[PT5] an in-process adapter names its own surface (channel:<name>) through the same dispatch', () => {
    expect(connectionSurface({ mode: 'agent', surface: 'channel:telegram' })).toBe('channel:telegram');
    expect(replySurface({ mode: 'agent', surface: 'channel:slack' }, 'blocking')).toBe('channel:slack');
    expect(replySurface({ mode: 'agent', surface: 'channel:slack' }, 'async')).toBe('channel:slack');
    expect(connectionSurface({ mode: 'ui' })).toBe('control-ui');
    expect(connectionSurface({ mode: 'agent' })).toBeUndefined();
    expect(replySurface({ mode: 'agent' }, 'blocking')).toBe('plain-text');
    expect(replySurface({ mode: 'agent' }, 'async')).toBe('plain-text');
    expect(replySurface({ mode: 'ui' }, 'async')).toBe('control-ui');
  });
});
