import { afterEach, describe, expect, it } from 'vitest';
import { formatAsyncAnswerText } from '../../answers/async-reply.ts';
import { createMemoryStore } from '../store/memory.ts';
import type { Store } from '../store/types.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { failure, item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { laterCommit } from '../../testing/barrier.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const lunch = item({ id: 'lunch', header: 'Lunch', question: 'What for lunch?', options: [{ label: 'Pizza' }, { label: 'Sushi' }, { label: 'Salad' }] });
const notify = item({ id: 'notify', header: 'Notify', question: 'Who to tell?', multiSelect: true, options: [{ label: 'Email' }, { label: 'Slack' }] });

async function setup(opts: Parameters<typeof startTestGateway>[0] = {}) {
  t = await startTestGateway(opts);
  const admin = await t.connect('admin');
  const agent = await t.connect('agent');
  const { session } = await admin.call('sessions.create', {});
  return { admin, agent, session };
}

describe('[Q9] async answers arrive as chat replies', () => {
  it('[Q9] replyTo.answers are validated, stored, and the record turns answered with replyMessageId', async () => {
    const { admin, agent, session } = await setup();
    const { id, expiresAtMs } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch, notify] });
    expect(expiresAtMs).toBeNull();
    const text = formatAsyncAnswerText([lunch, notify] as never, { lunch: ['Sushi'], notify: ['Email', 'Slack'] });
    const sent = await admin.call('chat.send', {
      sessionKey: session.key,
      message: text,
      idempotencyKey: 'reply-key-1',
      replyTo: { questionId: id, answers: { lunch: ['sushi'], notify: ['Email', 'slack'] } },
    });
    const { question } = await admin.call('question.get', { id });
    expect(question).toMatchObject({ status: 'answered', answers: { lunch: ['Sushi'], notify: ['Email', 'Slack'] }, replyMessageId: sent.messageId });
    expect(question.resolvedBy).toMatchObject({ identity: 'admin' });
    const resolved = await admin.waitEvent('question.resolved', (e) => e.id === id);
    expect(resolved).toMatchObject({ status: 'answered', replyMessageId: sent.messageId, sessionKey: session.key });
    const { messages } = await admin.call('chat.history', { sessionKey: session.key });
    expect(messages[0]).toMatchObject({ id: sent.messageId, text, replyTo: { questionId: id, answers: { lunch: ['Sushi'], notify: ['Email', 'Slack'] } } });
    // A resend of the same reply (outbox retry) is deduped, never a second answer.
    expect(await admin.call('chat.send', { sessionKey: session.key, message: text, idempotencyKey: 'reply-key-1', replyTo: { questionId: id } })).toEqual({
      ...sent,
      deduped: true,
    });
  });

  it('[Q9] an async question answered with question.resolve (its link page, a script) is answered by a message in its session too', async () => {
    const { admin, agent, session } = await setup();
    await agent.call('agent.subscribe', { sessionKey: session.key });
    const { id } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch, notify] });
    const result = await admin.call('question.resolve', { id, answers: { lunch: ['sushi'], notify: ['Slack'] }, resolutionId: 'link-res-0001', surface: 'link' });
    expect(result).toEqual({ status: 'answered', answers: { lunch: ['Sushi'], notify: ['Slack'] } });
    const { question } = await admin.call('question.get', { id });
    expect(question.resolvedBy).toMatchObject({ identity: 'admin', surface: 'link' });
    const { messages } = await admin.call('chat.history', { sessionKey: session.key });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      id: question.replyMessageId,
      role: 'user',
      authorId: 'admin',
      text: formatAsyncAnswerText([lunch, notify] as never, { lunch: ['Sushi'], notify: ['Slack'] }),
      replyTo: { questionId: id, answers: { lunch: ['Sushi'], notify: ['Slack'] } },
    });
    // The agent reads it in its conversation, as a reply from the dock.
    const chat = await agent.waitEvent('chat', (e) => e.message.replyTo?.questionId === id);
    expect(chat.message.id).toBe(question.replyMessageId);
    // A repeat of the resolve is the first result and no second message; a blocking question gets no message.
    expect(await admin.call('question.resolve', { id, answers: { lunch: ['Sushi'], notify: ['Slack'] }, resolutionId: 'link-res-0001' })).toEqual(result);
    const blocking = await agent.call('question.request', { sessionKey: session.key, questions: [lunch] });
    await admin.call('question.resolve', { id: blocking.id, answers: { lunch: ['Pizza'] } });
    expect((await admin.call('chat.history', { sessionKey: session.key })).messages).toHaveLength(1);
  });

  it('[Q9] without answers, the gateway reads them back from the text', async () => {
    const { admin, agent, session } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch, notify] });
    await admin.call('chat.send', { sessionKey: session.key, message: '> Lunch\npizza\n\n> Notify\nSlack, my manager', idempotencyKey: 'reply-key-2', replyTo: { questionId: id } });
    expect((await admin.call('question.get', { id })).question.answers).toEqual({ lunch: ['Pizza'], notify: ['Slack', 'my manager'] });
  });

  it('[Q9] a reply typed without quoted headings reads as a plain-text reply (PT1-PT3); one that fits no rule stores no answers', async () => {
    const { admin, agent, session } = await setup();
    const ask = async (...questions: (typeof lunch)[]) => (await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions })).id;
    const reply = (id: string, message: string, key: string) => admin.call('chat.send', { sessionKey: session.key, message, idempotencyKey: key, replyTo: { questionId: id } });
    const answered = async (id: string) => (await admin.call('question.get', { id })).question;

    const byLabel = await ask(lunch);
    await reply(byLabel, 'sushi', 'plain-reply-1');
    expect((await answered(byLabel)).answers).toEqual({ lunch: ['Sushi'] });
    const byNumber = await ask(lunch);
    await reply(byNumber, '3', 'plain-reply-2');
    expect((await answered(byNumber)).answers).toEqual({ lunch: ['Salad'] });
    const several = await ask(lunch, notify);
    await reply(several, '1: Pizza\nnotify: 1, 2', 'plain-reply-3');
    expect((await answered(several)).answers).toEqual({ lunch: ['Pizza'], notify: ['Email', 'Slack'] });
    // Leaves a question out: answered, with the text kept and no answers.
    const partial = await ask(lunch, notify);
    await reply(partial, 'Pizza', 'plain-reply-4');
    const q = await answered(partial);
    expect(q.status).toBe('answered');
    expect(q.answers).toBeUndefined();
  });

  it('[Q9] where quoted headings make the text ambiguous, the record is answered with no answers and the text is kept', async () => {
    const { admin, agent, session } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch, notify] });
    const text = '> Notify\nSlack\n\n> Lunch\nPizza';
    const sent = await admin.call('chat.send', { sessionKey: session.key, message: text, idempotencyKey: 'reply-key-3', replyTo: { questionId: id } });
    const { question } = await admin.call('question.get', { id });
    expect(question.status).toBe('answered');
    expect(question.answers).toBeUndefined();
    expect(question.replyMessageId).toBe(sent.messageId);
    expect((await admin.call('chat.history', { sessionKey: session.key })).messages[0].text).toBe(text);
  });

  it('[Q9] invalid replyTo.answers answer QUESTION_INVALID_ANSWER and save no message', async () => {
    const { admin, agent, session } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
    const err = await failure(
      admin.call('chat.send', { sessionKey: session.key, message: 'x', idempotencyKey: 'reply-key-4', replyTo: { questionId: id, answers: { lunch: ['Pizza', 'Sushi'] } } }),
    );
    expect(err.code).toBe('QUESTION_INVALID_ANSWER');
    expect(err.details).toEqual([{ questionId: 'lunch', problem: 'is single-select and takes one value' }]);
    expect((await admin.call('chat.history', { sessionKey: session.key })).messages).toEqual([]);
    expect((await admin.call('question.get', { id })).question.status).toBe('pending');
  });

  it('[Q9] a reply to a terminal, blocking or foreign question is refused', async () => {
    const { admin, agent, session } = await setup();
    const { session: other } = await admin.call('sessions.create', {});
    const done = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
    await admin.call('question.resolve', { id: done.id, skip: true });
    const send = (questionId: string, key: string, sessionKey = session.key) =>
      failure(admin.call('chat.send', { sessionKey, message: '> Lunch\nPizza', idempotencyKey: key, replyTo: { questionId } }));
    expect((await send(done.id, 'reply-key-5')).code).toBe('QUESTION_ALREADY_TERMINAL');
    const blocking = await agent.call('question.request', { sessionKey: session.key, questions: [lunch] });
    expect((await send(blocking.id, 'reply-key-6')).details).toEqual([{ path: 'replyTo.questionId', problem: expect.stringContaining('blocking') }]);
    const asyncQ = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
    expect((await send(asyncQ.id, 'reply-key-7', other.key)).details).toEqual([{ path: 'replyTo.questionId', problem: expect.stringContaining('another session') }]);
    expect((await send('nope', 'reply-key-8')).code).toBe('QUESTION_NOT_FOUND');
  });

  it('[Q9] the message and the answered record are saved in one transaction: if one fails, neither is kept', async () => {
    const inner = createMemoryStore();
    let failUpdates = false;
    const store: Store = {
      ...inner,
      transaction: async (fn) => await inner.transaction(fn),
      updateQuestion: async (q) => {
        if (failUpdates) throw new Error('disk full');
        await inner.updateQuestion(q);
      },
    };
    const { admin, agent, session } = await setup({ store });
    const { id } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
    failUpdates = true;
    const err = await failure(admin.call('chat.send', { sessionKey: session.key, message: '> Lunch\nPizza', idempotencyKey: 'reply-key-9', replyTo: { questionId: id } }));
    expect(err.code).toBe('UNAVAILABLE');
    t!.logs.length = 0;
    failUpdates = false;
    expect((await admin.call('chat.history', { sessionKey: session.key })).messages).toEqual([]);
    expect((await admin.call('question.get', { id })).question.status).toBe('pending');
    // A later commit has gone out: a chat event of the failed send would be ahead of it.
    await laterCommit(admin);
    expect(admin.eventsNamed('chat')).toEqual([]);
    // The key was not spent: the retry goes through.
    expect((await admin.call('chat.send', { sessionKey: session.key, message: '> Lunch\nPizza', idempotencyKey: 'reply-key-9', replyTo: { questionId: id } })).deduped).toBe(false);
    expect((await admin.call('question.get', { id })).question.answers).toEqual({ lunch: ['Pizza'] });
    await t!.close();
    t = undefined;
    await inner.close();
  });
});

describe('[Q10] async retirement', () => {
  async function retirementWorld() {
    const clock = new FakeClock();
    const { admin, agent, session } = await setup({ clock });
    const step = () => clock.advance(5);
    const run = async (opts: { recovery?: boolean } = {}) => {
      step();
      const { runId } = await agent.call('run.start', { sessionKey: session.key, ...opts });
      return runId;
    };
    const end = async (runId: string, stopReason: 'end_turn' | 'aborted' | 'cancelled' | 'timeout' | 'error' | 'tool_use', phase?: 'commentary' | 'final') => {
      step();
      await agent.call('run.end', { runId, stopReason, ...(phase ? { phase } : {}) });
    };
    const status = async (id: string) => (await admin.call('question.get', { id })).question;
    return { clock, admin, agent, session, run, end, status, step };
  }

  it('[Q10] retires only after a later run ends end_turn outside commentary; never for other endings or overlapping runs', async () => {
    const { admin, agent, session, run, end, status } = await retirementWorld();
    const asking = await run();
    const overlapping = await run();
    const { id } = await agent.call('question.request', { runId: asking, mode: 'async', questions: [lunch] });
    await end(asking, 'end_turn');
    await end(overlapping, 'end_turn');
    expect((await status(id)).retiredAtMs).toBeUndefined();
    for (const reason of ['aborted', 'cancelled', 'timeout', 'error', 'tool_use'] as const) {
      await end(await run(), reason);
      expect((await status(id)).retiredAtMs, reason).toBeUndefined();
    }
    await end(await run(), 'end_turn', 'commentary');
    expect((await status(id)).retiredAtMs).toBeUndefined();
    const commentaryInject = await run();
    await agent.call('chat.inject', { runId: commentaryInject, text: 'thinking', state: 'final', phase: 'commentary' });
    await end(commentaryInject, 'end_turn');
    expect((await status(id)).retiredAtMs).toBeUndefined();
    await end(await run({ recovery: true }), 'error');
    expect((await status(id)).retiredAtMs).toBeUndefined();

    const before = (await admin.call('sessions.list', {})).sessions[0].pendingQuestions;
    const updatesSeen = admin.eventsNamed('session.updated').length;
    await end(await run(), 'end_turn');
    const q = await status(id);
    expect(q.status).toBe('pending');
    expect(q.retiredAtMs).toEqual(expect.any(Number));
    expect(q.answers).toBeUndefined();
    expect(await admin.waitEvent('question.retired', (e) => e.id === id)).toMatchObject({ sessionKey: session.key, retiredAtMs: q.retiredAtMs });
    expect(admin.eventsNamed('question.retired')).toHaveLength(1);
    expect((await admin.call('sessions.list', {})).sessions[0].pendingQuestions).toBe(before - 1);
    // Lists kept live by events see the lower count too.
    await expect
      .poll(() => admin.eventsNamed('session.updated').slice(updatesSeen).map((e) => [e.session.key, e.session.pendingQuestions]))
      .toContainEqual([session.key, before - 1]);
    // Retired is not answered: a reply still answers it.
    await admin.call('chat.send', { sessionKey: session.key, message: '> Lunch\nSalad', idempotencyKey: 'late-reply-1', replyTo: { questionId: id } });
    expect((await status(id)).answers).toEqual({ lunch: ['Salad'] });
  });

  it('[Q10] a recovery run that ends end_turn retires it', async () => {
    const { agent, run, end, status } = await retirementWorld();
    const asking = await run();
    const { id } = await agent.call('question.request', { runId: asking, mode: 'async', questions: [lunch] });
    await end(asking, 'end_turn');
    await end(await run({ recovery: true }), 'end_turn');
    expect((await status(id)).retiredAtMs).toEqual(expect.any(Number));
  });

  it('[Q10] a recovery run that ends end_turn retires reminders of an asking run that died without ending; an ordinary run does not', async () => {
    const { agent, run, end, status } = await retirementWorld();
    const died = await run();
    const { id } = await agent.call('question.request', { runId: died, mode: 'async', questions: [lunch] });
    await end(await run(), 'end_turn');
    expect((await status(id)).retiredAtMs).toBeUndefined();
    await end(await run({ recovery: true }), 'error');
    expect((await status(id)).retiredAtMs).toBeUndefined();
    await end(await run({ recovery: true }), 'end_turn', 'commentary');
    expect((await status(id)).retiredAtMs).toBeUndefined();
    await end(await run({ recovery: true }), 'end_turn');
    expect((await status(id)).retiredAtMs).toEqual(expect.any(Number));
  });

  it('[Q10] without a runId, a later user message whose run ends end_turn retires it', async () => {
    const { admin, agent, session, run, end, status, step } = await retirementWorld();
    step();
    await admin.call('chat.send', { sessionKey: session.key, message: 'earlier', idempotencyKey: 'earlier-key' });
    const byEarlier = await run();
    step();
    const { id } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
    await end(byEarlier, 'end_turn');
    expect((await status(id)).retiredAtMs).toBeUndefined();
    step();
    await admin.call('chat.send', { sessionKey: session.key, message: 'later', idempotencyKey: 'later-key-1' });
    const aborted = await run();
    await end(aborted, 'aborted');
    expect((await status(id)).retiredAtMs).toBeUndefined();
    step();
    await admin.call('chat.send', { sessionKey: session.key, message: 'later again', idempotencyKey: 'later-key-2' });
    await end(await run(), 'end_turn');
    expect((await status(id)).retiredAtMs).toEqual(expect.any(Number));
  });

  it('[Q10][U8] a retired reminder retires again, with a newer retiredAtMs, when a run that started after its retirement ends end_turn', async () => {
    const { admin, agent, run, end, status } = await retirementWorld();
    const asking = await run();
    const { id } = await agent.call('question.request', { runId: asking, mode: 'async', questions: [lunch] });
    await end(asking, 'end_turn');
    const overlapping = await run();
    await end(await run(), 'end_turn');
    const first = (await status(id)).retiredAtMs!;
    expect(first).toEqual(expect.any(Number));
    // Started before the retirement: it does not retire it again.
    await end(overlapping, 'end_turn');
    await end(await run(), 'error');
    expect((await status(id)).retiredAtMs).toBe(first);
    expect(admin.eventsNamed('question.retired').filter((e) => e.id === id)).toHaveLength(1);

    await end(await run(), 'end_turn');
    const again = await status(id);
    expect(again.status).toBe('pending');
    expect(again.retiredAtMs).toBeGreaterThan(first);
    expect(await admin.waitEvent('question.retired', (e) => e.id === id && e.retiredAtMs === again.retiredAtMs)).toBeTruthy();
  });

  it('[Q10] steps made within one millisecond keep their order: a later run retires it, an overlapping one does not', async () => {
    // The clock never moves: every step below lands in the same millisecond, as a fast script's do.
    const { admin, agent, session } = await setup({ clock: new FakeClock() });
    const start = async () => (await agent.call('run.start', { sessionKey: session.key })).runId;
    const endTurn = (runId: string) => agent.call('run.end', { runId, stopReason: 'end_turn' });
    const retiredAt = async (id: string) => (await admin.call('question.get', { id })).question.retiredAtMs;

    const asking = await start();
    const overlapping = await start();
    const { id } = await agent.call('question.request', { runId: asking, mode: 'async', questions: [lunch] });
    await endTurn(asking);
    await endTurn(overlapping);
    expect(await retiredAt(id)).toBeUndefined();
    await endTurn(await start());
    const first = await retiredAt(id);
    expect(first).toEqual(expect.any(Number));
    // Put back in the dock by the person (U8), it retires again for the next run.
    await endTurn(await start());
    expect(await retiredAt(id)).toBeGreaterThan(first!);

    // Without a runId: a user message sent right after the question, and its run ending end_turn, retire it.
    const { id: loose } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
    await admin.call('chat.send', { sessionKey: session.key, message: 'moving on', idempotencyKey: 'same-ms-1' });
    await endTurn(await start());
    expect(await retiredAt(loose)).toEqual(expect.any(Number));
    // ...but a message sent before the question does not, even when the run that follows it ends end_turn.
    await admin.call('chat.send', { sessionKey: session.key, message: 'before the question', idempotencyKey: 'same-ms-2' });
    const { id: after } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
    await endTurn(await start());
    expect(await retiredAt(after)).toBeUndefined();
  });

  it('[Q10] within one millisecond, a run that overlapped the asking run does not retire it, whatever ended just before', async () => {
    const { admin, agent, session } = await setup({ clock: new FakeClock() });
    const start = async () => (await agent.call('run.start', { sessionKey: session.key })).runId;
    const endTurn = (runId: string) => agent.call('run.end', { runId, stopReason: 'end_turn' });
    const asking = await start();
    const { id } = await agent.call('question.request', { runId: asking, mode: 'async', questions: [lunch] });
    await endTurn(await start());
    const overlapping = await start();
    await endTurn(asking);
    await endTurn(overlapping);
    expect((await admin.call('question.get', { id })).question.retiredAtMs).toBeUndefined();
    await endTurn(await start());
    expect((await admin.call('question.get', { id })).question.retiredAtMs).toEqual(expect.any(Number));
  });

  it('[Q10] runs in other sessions do not retire it', async () => {
    const { admin, agent, run, end, status } = await retirementWorld();
    const asking = await run();
    const { id } = await agent.call('question.request', { runId: asking, mode: 'async', questions: [lunch] });
    await end(asking, 'end_turn');
    const { session: other } = await admin.call('sessions.create', {});
    const { runId } = await agent.call('run.start', { sessionKey: other.key });
    await agent.call('run.end', { runId, stopReason: 'end_turn' });
    expect((await status(id)).retiredAtMs).toBeUndefined();
  });
});
