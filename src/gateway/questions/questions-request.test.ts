import { describe, expect, it } from 'vitest';
import { MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from '../../protocol/index.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { failure, item, gatewayPerTest } from '../../testing/gateway-harness.ts';
import { FOUR_FAULTY, FOUR_FAULTY_PATHS } from '../../testing/question-items.ts';

// Q1/Q2/Q3/Q11: question.request, what it keeps and what it refuses.
const gateway = gatewayPerTest();
const setup = gateway.withSession;

describe('question.request', () => {
  it('[Q2] lists every field at fault of one bad request at once', async () => {
    const { agent } = await setup();
    const err = await failure(
      agent.call('question.request', {
        questions: [
          item(),
          {
            id: 'Bad-Id',
            header: '   ',
            question: '',
            options: [{ label: 'Same' }, { label: 'same ' }, { label: 'Other' }, { label: 'x'.repeat(65), description: 'd'.repeat(201) }],
          },
          { id: 'env', header: 'Dup', question: 'Again?', options: [{ label: 'Only one' }] },
        ],
      } as never),
    );
    expect(err.code).toBe('INVALID_REQUEST');
    const paths = (err.details as { path: string }[]).map((d) => d.path).sort();
    expect(paths).toEqual(
      [
        'questions[1].id',
        'questions[1].header',
        'questions[1].question',
        'questions[1].options[1].label',
        'questions[1].options[2].label',
        'questions[1].options[3].label',
        'questions[1].options[3].description',
        'questions[2].id',
        'questions[2].options',
      ].sort(),
    );
    expect(err.message).toContain('questions[1].options[3].label');
  });

  it('[Q2][T3] a request with 4 questions names every other fault too, not only the count', async () => {
    const { agent } = await setup();
    const err = await failure(agent.call('question.request', { questions: FOUR_FAULTY.map((over) => item(over)) }));
    expect(err.code).toBe('INVALID_REQUEST');
    expect((err.details as { path: string }[]).map((d) => d.path).sort()).toEqual([...FOUR_FAULTY_PATHS].sort());
  });

  it('[Q2] reports duplicate ids, duplicate labels and an authored Other with their paths', async () => {
    const { agent } = await setup();
    const err = await failure(
      agent.call('question.request', {
        questions: [
          item({ options: [{ label: 'Yes' }, { label: ' yes' }, { label: 'Other…' }] }),
          item({ header: 'Again' }),
        ],
      }),
    );
    const details = err.details as { path: string; problem: string }[];
    expect(details).toEqual(
      expect.arrayContaining([
        { path: 'questions[1].id', problem: expect.stringContaining('used twice') },
        { path: 'questions[0].options[1].label', problem: expect.stringContaining('used twice') },
        { path: 'questions[0].options[2].label', problem: expect.stringContaining('Other') },
      ]),
    );
  });

  it('[Q2] refuses 0 or 4 questions and cuts a long header on a word instead of rejecting it', async () => {
    const { agent, admin } = await setup();
    expect((await failure(agent.call('question.request', { questions: [] }))).details).toEqual([
      { path: 'questions', problem: 'questions must have 1 to 3 entries' },
    ]);
    const four = ['a', 'b', 'c', 'd'].map((id) => item({ id }));
    expect((await failure(agent.call('question.request', { questions: four }))).code).toBe('INVALID_REQUEST');
    const { id } = await agent.call('question.request', { questions: [item({ header: '  A very long header indeed ' })] });
    const { question } = await admin.call('question.get', { id });
    expect(question.questions[0].header).toBe('A very long…');
  });

  it('[Q3] defaults the timeout to 900 s and clamps it to 30 s..3600 s', async () => {
    const clock = new FakeClock();
    const { agent } = await setup({ clock });
    const now = clock.now();
    expect((await agent.call('question.request', { questions: [item()] })).expiresAtMs).toBe(now + 900_000);
    expect((await agent.call('question.request', { questions: [item()], timeoutMs: 5 })).expiresAtMs).toBe(now + MIN_TIMEOUT_MS);
    expect((await agent.call('question.request', { questions: [item()], timeoutMs: 1e9 })).expiresAtMs).toBe(now + MAX_TIMEOUT_MS);
    expect((await agent.call('question.request', { questions: [item()], timeoutMs: 45_000 })).expiresAtMs).toBe(now + 45_000);
  });

  it('[Q3] an async question without timeoutMs never expires; with one it does', async () => {
    const clock = new FakeClock();
    const { agent, session } = await setup({ clock });
    const never = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [item()] });
    expect(never.expiresAtMs).toBeNull();
    const timed = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [item()], timeoutMs: 60_000 });
    expect(timed.expiresAtMs).toBe(clock.now() + 60_000);
    clock.advance(10 * 3_600_000);
    // One sweep expires everything due: once the timed one has expired, the other was looked at too.
    await expect.poll(async () => (await agent.call('question.get', { id: timed.id })).question.status, { timeout: 15_000 }).toBe('expired');
    expect((await agent.call('question.get', { id: never.id })).question.status).toBe('pending');
  });

  it('[Q11] a second blocking question in a session answers QUESTION_PENDING with the first id', async () => {
    const { agent, session } = await setup();
    const first = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    const err = await failure(agent.call('question.request', { sessionKey: session.key, questions: [item({ id: 'other' })] }));
    expect(err.code).toBe('QUESTION_PENDING');
    expect(err.details).toEqual({ id: first.id });
    expect(err.message).toContain(first.id);
    // Async questions and other sessions are not limited.
    await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [item()] });
    await agent.call('question.request', { questions: [item()] });
  });

  it('[Q11] a blocking question asked with only runId counts for the run\'s session: a second one, by runId or sessionKey, is refused', async () => {
    const { agent, session } = await setup();
    const { runId } = await agent.call('run.start', { sessionKey: session.key });
    const first = await agent.call('question.request', { runId, questions: [item()] });
    const byRun = await failure(agent.call('question.request', { runId, questions: [item({ id: 'other' })] }));
    expect(byRun.code).toBe('QUESTION_PENDING');
    expect(byRun.details).toEqual({ id: first.id });
    const bySession = await failure(agent.call('question.request', { sessionKey: session.key, questions: [item({ id: 'other' })] }));
    expect(bySession.details).toEqual({ id: first.id });
  });

  it('[Q2][P7] a used id answers QUESTION_ID_IN_USE, but the same asker resending the same ask gets it back', async () => {
    const { agent, session } = await setup();
    const first = await agent.call('question.request', { id: 'deploy-1', sessionKey: session.key, questions: [item()] });
    expect(first.id).toBe('deploy-1');
    // A resend after a reconnect: same record, not QUESTION_PENDING, not a second question.
    expect(await agent.call('question.request', { id: 'deploy-1', sessionKey: session.key, questions: [item()] })).toEqual(first);
    const changed = await failure(agent.call('question.request', { id: 'deploy-1', sessionKey: session.key, questions: [item({ question: 'Else?' })] }));
    expect(changed.code).toBe('QUESTION_ID_IN_USE');
    // Other content is more than the wording: how long it waits, whether it is privileged, the run that asks.
    const { runId } = await agent.call('run.start', { sessionKey: session.key });
    for (const other of [{ timeoutMs: 60_000 }, { privileged: true }, { runId }])
      expect((await failure(agent.call('question.request', { id: 'deploy-1', sessionKey: session.key, questions: [item()], ...other }))).code, JSON.stringify(other)).toBe(
        'QUESTION_ID_IN_USE',
      );
    // The default timeout written out is the same content.
    expect(await agent.call('question.request', { id: 'deploy-1', sessionKey: session.key, questions: [item()], timeoutMs: 900_000 })).toEqual(first);
    const agent2 = await gateway.t.connect('agent2');
    expect((await failure(agent2.call('question.request', { id: 'deploy-1', sessionKey: session.key, questions: [item()] }))).code).toBe(
      'QUESTION_ID_IN_USE',
    );
    expect((await agent.call('question.list', { sessionKey: session.key })).questions).toHaveLength(1);
  });

  it('[Q2] an unknown session answers SESSION_NOT_FOUND; a foreign or ended run INVALID_REQUEST naming runId', async () => {
    const { agent, session } = await setup();
    expect((await failure(agent.call('question.request', { sessionKey: 'nope', questions: [item()] }))).code).toBe('SESSION_NOT_FOUND');
    const { runId } = await agent.call('run.start', { sessionKey: session.key });
    const agent2 = await gateway.t.connect('agent2');
    const foreign = await failure(agent2.call('question.request', { runId, questions: [item()] }));
    expect(foreign.details).toEqual([{ path: 'runId', problem: expect.stringContaining(runId) }]);
    await agent.call('run.end', { runId, stopReason: 'end_turn' });
    expect((await failure(agent.call('question.request', { runId, questions: [item()] }))).details).toEqual([
      { path: 'runId', problem: expect.stringContaining('ended') },
    ]);
  });

  it('[Q1] a question asked in a run takes the run session and records who asked', async () => {
    const clock = new FakeClock();
    const { agent, admin, session } = await setup({ clock });
    const { runId } = await agent.call('run.start', { sessionKey: session.key });
    const { id } = await agent.call('question.request', { runId, privileged: false, questions: [item({ multiSelect: true })] });
    const { question } = await admin.call('question.get', { id });
    expect(question).toEqual({
      id,
      sessionKey: session.key,
      runId,
      askedBy: 'agent',
      mode: 'blocking',
      questions: [{ id: 'env', header: 'Environment', question: 'Where should it deploy?', options: [{ label: 'Staging' }, { label: 'Production' }], multiSelect: true }],
      createdAtMs: clock.now(),
      expiresAtMs: clock.now() + 900_000,
      status: 'pending',
    });
  });
});
