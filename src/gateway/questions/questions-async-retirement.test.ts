import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../testing/fake-clock.ts';
import { asyncGatewayPerTest, lunch } from '../../testing/async-questions.ts';

// Q10: async reminders retired by the runs after them.
const { setup } = asyncGatewayPerTest();

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
