import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../testing/fake-clock.ts';
import { failure, item, gatewayPerTest } from '../../testing/gateway-harness.ts';
import { laterCommit, roundTrips } from '../../testing/barrier.ts';

// Q4/Q5/Q6: question.resolve, waitAnswer, get and list.
const gateway = gatewayPerTest();
const setup = gateway.withSession;

describe('question.resolve and waitAnswer', () => {
  it('[Q4] waitAnswer returns the answer once resolved; [Q5] labels are matched case-insensitively and trimmed', async () => {
    const { agent, admin } = await setup();
    const { id } = await agent.call('question.request', {
      questions: [item(), item({ id: 'notify', header: 'Notify', multiSelect: true, options: [{ label: 'Email' }, { label: 'Slack' }] })],
    });
    const wait = agent.call('question.waitAnswer', { id, includeResolutionId: true });
    // The gateway has taken the wait up (a connection's frames are read in order).
    await roundTrips([agent]);
    const res = await admin.call('question.resolve', {
      id,
      answers: { env: ['  staging '], notify: ['slack', 'Carrier pigeon'] },
      resolutionId: 'res-1',
    });
    expect(res).toEqual({ status: 'answered', answers: { env: ['Staging'], notify: ['Slack', 'Carrier pigeon'] } });
    expect(await wait).toEqual({ status: 'answered', answers: res.answers, resolutionId: 'res-1' });
    const { question } = await admin.call('question.get', { id });
    expect(question.resolvedBy).toEqual({ identity: 'admin', surface: 'cli', atMs: expect.any(Number) });
  });

  it('[Q4] waitAnswer with its own timeout answers status pending', async () => {
    const clock = new FakeClock();
    const { agent } = await setup({ clock });
    const { id } = await agent.call('question.request', { questions: [item()] });
    const wait = agent.call('question.waitAnswer', { id, timeoutMs: 5000 });
    await clock.timerSet(clock.now() + 5000);
    clock.advance(5000);
    expect(await wait).toEqual({ status: 'pending' });
    expect(await agent.call('question.waitAnswer', { id, timeoutMs: 0 })).toEqual({ status: 'pending' });
  });

  it('[Q4] only the asker may wait; others get QUESTION_NOT_FOUND or FORBIDDEN', async () => {
    const { agent, admin } = await setup();
    const { id } = await agent.call('question.request', { questions: [item()] });
    const agent2 = await gateway.t.connect('agent2');
    expect((await failure(agent2.call('question.waitAnswer', { id }))).code).toBe('QUESTION_NOT_FOUND');
    expect((await failure(admin.call('question.waitAnswer', { id }))).code).toBe('FORBIDDEN');
  });

  it('[Q5] invalid answers answer QUESTION_INVALID_ANSWER naming each question id', async () => {
    const { agent, admin } = await setup();
    const { id } = await agent.call('question.request', {
      questions: [item(), item({ id: 'notify', header: 'Notify', multiSelect: true }), item({ id: 'size', header: 'Size' })],
    });
    const err = await failure(admin.call('question.resolve', { id, answers: { env: ['Staging', 'Production'], notify: ['  '] } }));
    expect(err.code).toBe('QUESTION_INVALID_ANSWER');
    expect(err.details).toEqual([
      { questionId: 'env', problem: 'is single-select and takes one value' },
      { questionId: 'notify', problem: 'has a blank answer' },
      { questionId: 'size', problem: 'needs an answer' },
    ]);
    expect(err.message).toMatch(/env.*notify.*size/);
    const tooLong = await failure(admin.call('question.resolve', { id, answers: { env: ['x'.repeat(4001)], notify: ['a'], size: ['b'] } }));
    expect(tooLong.details).toEqual([{ questionId: 'env', problem: expect.stringContaining('4000') }]);
    expect((await admin.call('question.get', { id })).question.status).toBe('pending');
  });

  it('[Q2][Q5] ids named like Object.prototype members: `constructor` asks and answers, `__proto__` and `toString` are refused', async () => {
    const { agent, admin } = await setup();
    const refused = await failure(agent.call('question.request', { questions: [item({ id: '__proto__' }), item({ id: 'toString', header: 'T' })] }));
    expect((refused.details as { path: string }[]).map((d) => d.path)).toEqual(['questions[0].id', 'questions[1].id']);
    const { id } = await agent.call('question.request', { id: 'toString', questions: [item({ id: 'constructor' })] });
    const missing = await failure(admin.call('question.resolve', { id, answers: {} }));
    expect(missing.code).toBe('QUESTION_INVALID_ANSWER');
    expect(missing.details).toEqual([{ questionId: 'constructor', problem: 'needs an answer' }]);
    const stray = await failure(admin.call('question.resolve', { id, answers: { constructor: ['Staging'], toString: ['x'] } }));
    expect(stray.details).toEqual([{ questionId: 'toString', problem: 'is not a question of this prompt' }]);
    expect(await admin.call('question.resolve', { id, answers: { constructor: ['staging'] } })).toEqual({
      status: 'answered',
      answers: { constructor: ['Staging'] },
    });
    expect((await admin.call('question.get', { id })).question).toMatchObject({ id: 'toString', answers: { constructor: ['Staging'] } });
  });

  it('[Q5] skip declines the prompt; cancel is for the asker alone', async () => {
    const { agent, admin } = await setup();
    const a = await agent.call('question.request', { questions: [item()] });
    expect(await admin.call('question.resolve', { id: a.id, skip: true })).toEqual({ status: 'skipped' });
    const b = await agent.call('question.request', { questions: [item()] });
    const notAsker = await failure(admin.call('question.resolve', { id: b.id, cancel: true, reason: 'nah' }));
    expect(notAsker.code).toBe('FORBIDDEN');
    expect(await agent.call('question.resolve', { id: b.id, cancel: true, reason: 'user left' })).toEqual({ status: 'cancelled' });
    expect(await agent.call('question.waitAnswer', { id: b.id })).toEqual({ status: 'cancelled', reason: 'user left' });
    // The asking agent cannot answer its own question.
    const c = await agent.call('question.request', { questions: [item()] });
    const self = await failure(agent.call('question.resolve', { id: c.id, answers: { env: ['Staging'] } }));
    expect(self.code).toBe('FORBIDDEN');
    expect(self.message).toContain('operator.questions');
  });

  it('[Q5] a second resolve answers QUESTION_ALREADY_TERMINAL with the outcome; the same resolutionId and answers repeat the first result', async () => {
    const { agent, admin } = await setup();
    const { id } = await agent.call('question.request', { questions: [item()] });
    const first = await admin.call('question.resolve', { id, answers: { env: ['Production'] }, resolutionId: 'r-42' });
    expect(await admin.call('question.resolve', { id, answers: { env: ['production'] }, resolutionId: 'r-42' })).toEqual(first);
    const other = await failure(admin.call('question.resolve', { id, answers: { env: ['Staging'] }, resolutionId: 'r-42' }));
    expect(other.code).toBe('QUESTION_ALREADY_TERMINAL');
    expect(other.details).toEqual({
      id,
      status: 'answered',
      answers: { env: ['Production'] },
      resolvedBy: { identity: 'admin', surface: 'cli', atMs: expect.any(Number) },
    });
    expect((await failure(admin.call('question.resolve', { id, answers: { env: ['Production'] } }))).code).toBe('QUESTION_ALREADY_TERMINAL');
    expect((await failure(admin.call('question.resolve', { id, skip: true }))).code).toBe('QUESTION_ALREADY_TERMINAL');
    // Only one question.resolved event ever: a later commit has gone out after any other.
    await laterCommit(admin);
    expect(admin.eventsNamed('question.resolved').filter((e) => e.id === id)).toHaveLength(1);
  });

  it('[Q5] names the field at fault in a malformed resolve', async () => {
    const { agent, admin } = await setup();
    const { id } = await agent.call('question.request', { questions: [item()] });
    const err = await failure(admin.call('question.resolve', { id, answers: { env: 'Staging' } } as never));
    expect(err.details).toEqual([{ path: 'answers.env', problem: expect.any(String) }]);
    const badSurface = await failure(admin.call('question.resolve', { id, skip: true, surface: 'carrier-pigeon' }));
    expect(badSurface.details).toEqual([{ path: 'surface', problem: expect.stringContaining('surface') }]);
  });

  it('[Q1] resolvedBy.surface comes from the param; agents default to sdk', async () => {
    const { agent, admin } = await setup();
    const { id } = await agent.call('question.request', { questions: [item()] });
    await admin.call('question.resolve', { id, answers: { env: ['Staging'] }, surface: 'channel:telegram' });
    expect((await admin.call('question.get', { id })).question.resolvedBy?.surface).toBe('channel:telegram');
    const b = await agent.call('question.request', { questions: [item()] });
    await agent.call('question.resolve', { id: b.id, cancel: true });
    expect((await admin.call('question.get', { id: b.id })).question.resolvedBy?.surface).toBe('sdk');
  });

  it('[Q6] get works for every status; list filters by session and status, oldest first', async () => {
    const clock = new FakeClock();
    const { agent, admin, session } = await setup({ clock });
    const a = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    clock.advance(10);
    const b = await agent.call('question.request', { questions: [item()] });
    clock.advance(10);
    const c = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [item()] });
    await admin.call('question.resolve', { id: a.id, skip: true });
    expect((await admin.call('question.list', {})).questions.map((q) => q.id)).toEqual([a.id, b.id, c.id]);
    expect((await admin.call('question.list', { sessionKey: session.key })).questions.map((q) => q.id)).toEqual([a.id, c.id]);
    expect((await admin.call('question.list', { status: 'pending' })).questions.map((q) => q.id)).toEqual([b.id, c.id]);
    clock.advance(24 * 3_600_000 + 1);
    expect((await admin.call('question.get', { id: a.id })).question.status).toBe('skipped');
    expect((await admin.call('question.get', { id: b.id })).question.status).toBe('expired');
    expect((await failure(admin.call('question.get', { id: 'missing' }))).code).toBe('QUESTION_NOT_FOUND');
  });
});
