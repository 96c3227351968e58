import { describe, expect, it } from 'vitest';
import { MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from '../../protocol/index.ts';
import { createMemoryStore } from '../store/memory.ts';
import type { Store } from '../store/types.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { failure, item, gatewayPerTest } from '../../testing/gateway-harness.ts';
import { laterCommit, roundTrips } from '../../testing/barrier.ts';
import { FOUR_FAULTY, FOUR_FAULTY_PATHS } from '../../testing/question-items.ts';

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

describe('many requests in one turn (group commit)', () => {
  it('[R1][R3][Q11] each is kept or refused on its own, and every event reaches each operator once, in seq order', async () => {
    const { agent, admin } = await setup();
    const sessions: string[] = [];
    for (let i = 0; i < 8; i++) sessions.push((await admin.call('sessions.create', { title: `s${i}` })).session.key);
    // Sent without yielding, so the gateway reads them together and handles them in one turn.
    const asked = sessions.map((sessionKey) => agent.call('question.request', { sessionKey, questions: [item()] }));
    const refused = [
      failure(agent.call('question.request', { sessionKey: sessions[0], questions: [item()] })),
      failure(agent.call('question.request', { sessionKey: 'no-such-session', questions: [item()] })),
    ];
    const ids = (await Promise.all(asked)).map((r) => r.id);
    expect((await Promise.all(refused)).map((e) => e.code)).toEqual(['QUESTION_PENDING', 'SESSION_NOT_FOUND']);
    await admin.until(() => (admin.eventsNamed('question.requested').length >= 8 ? true : undefined));

    const waits = ids.map((id) => agent.call('question.waitAnswer', { id }));
    const resolved = ids.map((id) => admin.call('question.resolve', { id, answers: { env: ['Staging'] } }));
    expect((await Promise.all(resolved)).map((r) => r.status)).toEqual(ids.map(() => 'answered'));
    expect((await Promise.all(waits)).map((r) => r.status)).toEqual(ids.map(() => 'answered'));
    await admin.until(() => (admin.eventsNamed('question.resolved').length >= 8 ? true : undefined));
    await laterCommit(admin, [agent]);

    for (const client of [admin, agent]) {
      const seqs = client.seqEvents().map((e) => e.seq!);
      expect(seqs, 'strictly increasing, so none twice').toEqual([...seqs].sort((a, b) => a - b).filter((s, i, all) => i === 0 || s !== all[i - 1]));
      expect(client.eventsNamed('question.requested').map((e) => e.question.id).sort()).toEqual([...ids].sort());
      expect(client.eventsNamed('question.resolved').map((e) => e.id).sort()).toEqual([...ids].sort());
    }
    const stored = (await admin.call('question.list', {})).questions;
    expect(stored.map((q) => [q.id, q.status]).sort()).toEqual(ids.map((id) => [id, 'answered']).sort());
  });

  it('[Q8] a requester has the events of its change by the time the change is answered', async () => {
    const { agent, admin, session } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    expect(agent.eventsNamed('question.requested').map((e) => e.question.id)).toEqual([id]);
    await admin.call('question.resolve', { id, answers: { env: ['Staging'] } });
    expect(admin.eventsNamed('question.resolved').map((e) => e.id)).toEqual([id]);
  });

  it('[R3] when the turn cannot be saved, its requests answer UNAVAILABLE (retryable), nothing is kept, and a retry works', async () => {
    const inner = createMemoryStore();
    let failCommit = false;
    const store: Store = {
      ...inner,
      commitGroup: async () => {
        if (failCommit) throw new Error('disk I/O error');
        await inner.commitGroup();
      },
    };
    const { agent, admin, session } = await setup({ store });
    failCommit = true;
    const err = await failure(agent.call('question.request', { sessionKey: session.key, questions: [item()] }));
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.retryable).toBe(true);
    failCommit = false;
    gateway.t.logs.length = 0;
    expect((await admin.call('question.list', {})).questions).toEqual([]);
    expect(admin.eventsNamed('question.requested')).toEqual([]);
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    expect((await admin.call('question.get', { id })).question.status).toBe('pending');
    await gateway.t.close();
    await inner.close();
  });
});
