import { describe, expect, it } from 'vitest';
import { formatAsyncAnswerText } from '../../answers/async-reply.ts';
import { createMemoryStore } from '../store/memory.ts';
import type { Store } from '../store/types.ts';
import { failure } from '../../testing/gateway-harness.ts';
import { laterCommit } from '../../testing/barrier.ts';
import { asyncGatewayPerTest, lunch, notify } from '../../testing/async-questions.ts';

// Q9: async answers that arrive as chat replies.
const { gateway, setup } = asyncGatewayPerTest();

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
    gateway.t.logs.length = 0;
    failUpdates = false;
    expect((await admin.call('chat.history', { sessionKey: session.key })).messages).toEqual([]);
    expect((await admin.call('question.get', { id })).question.status).toBe('pending');
    // A later commit has gone out: a chat event of the failed send would be ahead of it.
    await laterCommit(admin);
    expect(admin.eventsNamed('chat')).toEqual([]);
    // The key was not spent: the retry goes through.
    expect((await admin.call('chat.send', { sessionKey: session.key, message: '> Lunch\nPizza', idempotencyKey: 'reply-key-9', replyTo: { questionId: id } })).deduped).toBe(false);
    expect((await admin.call('question.get', { id })).question.answers).toEqual({ lunch: ['Pizza'] });
    await gateway.t.close();
    await inner.close();
  });
});
