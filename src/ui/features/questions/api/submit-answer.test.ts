// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { GatewayClient } from '../../../../client/client.ts';
import { AskdockError } from '../../../../protocol/index.ts';
import { DRAFTS_STORAGE_KEY, useDraftsStore } from '../stores/drafts.ts';
import { withResolution } from './get-questions.ts';
import { answerRoute, endedElsewhere, resolveWithDraft, submitProblem, terminalOutcome } from './submit-answer.ts';
import { questionRecord } from '../../../../testing/question-record.ts';

const pending = questionRecord();

beforeEach(() => {
  localStorage.clear();
  useDraftsStore.setState({ drafts: {}, sent: {} });
});

describe('resolving a question from the dock or the link page', () => {
  it('[Q5] the dock and the link page send one draft with one resolution id, each naming its own surface', async () => {
    const request = vi.fn(async () => ({ status: 'answered' }));
    const client = { request } as unknown as GatewayClient;
    await resolveWithDraft(client, 'q1', { kind: 'answer', answers: { env: ['Production'] } }, 'control-ui');
    await resolveWithDraft(client, 'q1', { kind: 'skip' }, 'link');
    const [first, second] = request.mock.calls.map((call) => (call as unknown[])[1] as Record<string, unknown>);
    expect(first).toEqual({ id: 'q1', answers: { env: ['Production'] }, resolutionId: expect.any(String), surface: 'control-ui' });
    expect(second).toEqual({ id: 'q1', skip: true, resolutionId: first.resolutionId, surface: 'link' });
  });

  it('[Q5][U11] the resolve is handed to the socket before the draft is written to storage; the draft keeps the id it sent', async () => {
    const order: string[] = [];
    const request = vi.fn(async () => (order.push('request'), { status: 'answered' }));
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(function (this: Storage, key: string) {
      if (key === DRAFTS_STORAGE_KEY) order.push('stored');
    });
    const sending = resolveWithDraft({ request } as unknown as GatewayClient, 'q1', { kind: 'answer', answers: { env: ['Production'] } }, 'control-ui');
    expect(order).toEqual(['request', 'stored']);
    const sentId = ((request.mock.calls[0] as unknown[])[1] as { resolutionId: string }).resolutionId;
    expect(useDraftsStore.getState().drafts.q1.resolutionId).toBe(sentId);
    await sending;
    vi.restoreAllMocks();
  });

  it('[U7] a refusal because the record ended carries its outcome, at the top of the details or under `question`', async () => {
    const outcome = { id: 'q1', status: 'answered', answers: { env: ['Production'] }, resolvedBy: null, reason: null };
    const terminal = new AskdockError('QUESTION_ALREADY_TERMINAL', 'already answered', { details: outcome });
    expect(endedElsewhere(terminal)).toBe(true);
    expect(endedElsewhere(new AskdockError('QUESTION_NOT_FOUND', 'gone'))).toBe(true);
    expect(endedElsewhere(new AskdockError('QUESTION_INVALID_ANSWER', 'no'))).toBe(false);
    expect(await terminalOutcome(terminal)).toEqual({ status: 'answered', answers: { env: ['Production'] }, resolvedBy: undefined, reason: undefined });
    expect((await terminalOutcome(new AskdockError('QUESTION_ALREADY_TERMINAL', 'skipped', { details: { id: 'q1', status: 'skipped' } })))?.status).toBe('skipped');
    expect(await terminalOutcome(new AskdockError('QUESTION_NOT_FOUND', 'gone', { details: { id: 'q1' } }))).toBeNull();
  });

  it('[Q9][U9] an async question of a session answers through the outbox from the dock; everything else resolves', () => {
    const asyncRecord = questionRecord({ mode: 'async', sessionKey: 's1' });
    expect(answerRoute(asyncRecord, 'control-ui')).toBe('outbox');
    expect(answerRoute(asyncRecord, 'link')).toBe('resolve');
    expect(answerRoute(questionRecord({ mode: 'async' }), 'control-ui')).toBe('resolve');
    expect(answerRoute(questionRecord({ sessionKey: 's1' }), 'control-ui')).toBe('resolve');
    // A5: a sign-in chat.send would refuse (operator.questions alone) resolves it instead.
    expect(answerRoute(asyncRecord, 'control-ui', false)).toBe('resolve');
  });

  it('[Q5] a refused submit says why and that the answers are kept; a record that ended says nothing here', () => {
    expect(submitProblem(new AskdockError('UNAVAILABLE', 'the gateway is restarting'))).toBe(
      'Not sent: the gateway is restarting. Your answers are kept; try again.',
    );
    expect(submitProblem(new AskdockError('QUESTION_INVALID_ANSWER', 'env needs an answer'))).toBe('Not accepted: env needs an answer');
    expect(submitProblem(new AskdockError('QUESTION_ALREADY_TERMINAL', 'already answered'))).toBeNull();
    expect(submitProblem(null)).toBeNull();
  });

  it('[E3] an answer refused because the routed question waits for others says for whom, in words', () => {
    const refused = new AskdockError('FORBIDDEN', 'not eligible', { details: { eligible: ['ana', 'bo'] } });
    expect(submitProblem(refused)).toBe('Not yours to answer: Waiting for ana, bo.');
  });

  it('[G5][A5] an answer refused for who is answering says so, not to try the same again', () => {
    const refused = new AskdockError('FORBIDDEN', 'a grant for this project needs scope operator.admin or operator.questions', { details: { needed: ['operator.admin', 'operator.questions'] } });
    expect(submitProblem(refused)).toBe('Not allowed: a grant for this project needs scope operator.admin or operator.questions. Your answers are kept.');
    // A routed question that waits for nobody yet may become answerable: that refusal still says to try again.
    expect(submitProblem(new AskdockError('FORBIDDEN', 'nobody yet', { details: { eligible: [] } }))).toBe('Not sent: nobody yet. Your answers are kept; try again.');
  });

  it('[Q8] a question.resolved event fills in the record; what it leaves out stays', () => {
    const resolvedBy = { identity: 'op', surface: 'tui', atMs: 5 };
    const ended = withResolution({ ...pending, reason: 'kept' }, { id: 'q1', status: 'answered', answers: { env: ['Staging'] }, resolvedBy });
    expect(ended).toMatchObject({ status: 'answered', answers: { env: ['Staging'] }, resolvedBy, reason: 'kept', questions: pending.questions });
  });
});
