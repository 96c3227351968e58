import { describe, expect, it } from 'vitest';
import { AskdockError } from '../../../protocol/askdock-error.ts';
import { sendErrorOf } from './send-outcome.ts';

const terminal = (status: string) =>
  new AskdockError('QUESTION_ALREADY_TERMINAL', `question "q_1" is already ${status}`, { details: { id: 'q_1', status } });

describe('sendErrorOf', () => {
  it('[U9] a question that ended before the answer arrived reads as why, in words, without its id', () => {
    expect(sendErrorOf(terminal('answered')).message).toBe('Not delivered: it was already answered elsewhere.');
    expect(sendErrorOf(terminal('skipped')).message).toBe('Not delivered: it was already skipped.');
    expect(sendErrorOf(terminal('expired')).message).toBe('Not delivered: it expired.');
    expect(sendErrorOf(terminal('cancelled')).message).toBe('Not delivered: the agent cancelled it.');
    expect(sendErrorOf(new AskdockError('QUESTION_ALREADY_TERMINAL', 'x')).message).toBe('Not delivered: the question had already ended.');
    expect(sendErrorOf(terminal('answered'))).toMatchObject({ code: 'QUESTION_ALREADY_TERMINAL', retryable: false });
  });

  it('[U9] a question gone (or its session) reads as such, without its id', () => {
    expect(sendErrorOf(new AskdockError('QUESTION_NOT_FOUND', 'no question "q_1"')).message).toBe('Not delivered: the question is no longer there.');
    expect(sendErrorOf(new AskdockError('SESSION_NOT_FOUND', 'no session "s_1"')).message).toBe('Not delivered: the question is no longer there.');
  });

  it('[U9] other refusals keep what the gateway said', () => {
    const e = sendErrorOf(new AskdockError('INVALID_REQUEST', 'invalid chat.send: message: too long'));
    expect(e).toMatchObject({ code: 'INVALID_REQUEST', message: 'invalid chat.send: message: too long', retryable: false });
    expect(sendErrorOf(new AskdockError('RATE_LIMITED', 'slow down', { retryAfterMs: 50 }))).toMatchObject({ retryable: true, retryAfterMs: 50 });
  });
});
