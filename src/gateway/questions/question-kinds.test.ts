import { describe, expect, it } from 'vitest';
import { failure, item, gatewayPerTest } from '../../testing/gateway-harness.ts';

const gateway = gatewayPerTest();

const replicas = { id: 'replicas', header: 'Replicas', question: 'How many replicas?', kind: 'input' as const, input: { type: 'integer' as const, minimum: 1, maximum: 10 } };
const go = { id: 'go', header: 'Deploy', question: 'Deploy now?', kind: 'confirm' as const };
const login = { id: 'login', header: 'Sign in', question: 'Sign in to GitHub', kind: 'link' as const, url: 'https://github.com/login' };

const setup = gateway.withSession;

describe('question kinds on the wire (Q12)', () => {
  it('[Q12] a confirm, a typed input and a link are stored with their kind; the gateway checks an input by its rules', async () => {
    const { agent, admin } = await setup();
    const { id } = await agent.call('question.request', { questions: [go, replicas, login] });
    const { question } = await admin.call('question.get', { id });
    expect(question.questions.map((q) => [q.kind, q.options.map((o) => o.label)])).toEqual([
      ['confirm', ['Yes', 'No']],
      ['input', []],
      ['link', ['Done', 'Decline']],
    ]);
    expect(question.questions[1].input).toEqual({ type: 'integer', minimum: 1, maximum: 10 });
    const bad = await failure(admin.call('question.resolve', { id, answers: { go: ['maybe'], replicas: ['11'], login: ['Done'] } }));
    expect(bad.code).toBe('QUESTION_INVALID_ANSWER');
    expect(bad.details).toEqual([
      { questionId: 'go', problem: 'takes one of Yes or No' },
      { questionId: 'replicas', problem: 'must be at most 10 (maximum)' },
    ]);
    const notNumber = await failure(admin.call('question.resolve', { id, answers: { go: ['yes'], replicas: ['three'], login: ['done'] } }));
    expect(notNumber.details).toEqual([{ questionId: 'replicas', problem: 'must be a whole number (integer)' }]);
    expect(await admin.call('question.resolve', { id, answers: { go: ['y'], replicas: [' 3 '], login: ['done'] } })).toEqual({
      status: 'answered',
      answers: { go: ['Yes'], replicas: ['3'], login: ['Done'] },
    });
  });

  it('[Q12] each kind takes only its own fields, and the refusal names each field at fault', async () => {
    const { agent } = await setup();
    const err = await failure(
      agent.call('question.request', {
        questions: [
          { ...go, options: [{ label: 'Sure' }, { label: 'Nope' }] },
          { id: 'link', header: 'Link', question: 'Open it', kind: 'link' },
          { id: 'typed', header: 'Typed', question: 'How many?', kind: 'input' },
        ],
      }),
    );
    expect(err.code).toBe('INVALID_REQUEST');
    expect(err.details).toEqual([
      { path: 'questions[0].options', problem: 'a confirm question takes no options: its answers are Yes and No' },
      { path: 'questions[1].url', problem: 'url is required for a link question' },
      { path: 'questions[2].input', problem: 'input is required for an input question' },
    ]);
    const multi = await failure(agent.call('question.request', { questions: [{ ...item(), kind: 'approval', multiSelect: true }] }));
    expect(multi.details).toEqual([{ path: 'questions[0].multiSelect', problem: 'multiSelect is only for choice questions' }]);
  });

  it('[Q12] a protocol-1 client is served: it sees every kind as a choice with the kind labels and answers by label', async () => {
    const { agent, admin } = await setup();
    const old = await gateway.t.connect('admin', { protocol: 1 });
    expect(old.hello?.protocol).toBe(1);
    expect(admin.hello?.protocol).toBe(2);
    const flag = { id: 'cache', header: 'Cache', question: 'Keep the cache?', kind: 'input' as const, input: { type: 'boolean' as const } };
    const { id } = await agent.call('question.request', { questions: [go, replicas, flag] });
    const seen = await old.waitEvent('question.requested', (p) => p.question.id === id);
    expect(seen.question.questions).toEqual([
      { id: 'go', header: 'Deploy', question: 'Deploy now?', options: [{ label: 'Yes' }, { label: 'No' }] },
      { id: 'replicas', header: 'Replicas', question: 'How many replicas?', options: [] },
      { id: 'cache', header: 'Cache', question: 'Keep the cache?', options: [{ label: 'Yes' }, { label: 'No' }] },
    ]);
    expect((await old.call('question.get', { id })).question.questions[0]).not.toHaveProperty('kind');
    expect((await admin.call('question.get', { id })).question.questions[0]).toHaveProperty('kind', 'confirm');
    expect(await old.call('question.resolve', { id, answers: { go: ['No'], replicas: ['4'], cache: ['Yes'] } })).toEqual({
      status: 'answered',
      answers: { go: ['No'], replicas: ['4'], cache: ['true'] },
    });
  });

  it('[Q12] a protocol-1 client hears a kind question asked in a session, whose commit sends its events together', async () => {
    const { agent, session } = await setup();
    const old = await gateway.t.connect('admin', { protocol: 1 });
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [go] });
    const seen = await old.waitEvent('question.requested', (p) => p.question.id === id);
    expect(seen.question.questions).toEqual([{ id: 'go', header: 'Deploy', question: 'Deploy now?', options: [{ label: 'Yes' }, { label: 'No' }] }]);
    // The events of that commit after the question reach it too, in order.
    await old.waitEvent('session.updated', (p) => p.session.key === session.key && p.session.pendingQuestions === 1);
  });
});
