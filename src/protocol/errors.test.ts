import { describe, expect, it } from 'vitest';
import { AskdockError } from './askdock-error.ts';
import { errorDetails, errorDetailsProblem } from './errors.ts';

describe('error details per code', () => {
  it('[errors] each code names the shape of its details; a reader gets them typed or not at all', () => {
    const terminal = new AskdockError('QUESTION_ALREADY_TERMINAL', 'already answered', {
      details: { id: 'q1', status: 'answered', answers: { env: ['Production'] }, resolvedBy: null },
    });
    expect(errorDetails(terminal, 'QUESTION_ALREADY_TERMINAL')).toEqual({ id: 'q1', status: 'answered', answers: { env: ['Production'] } });
    expect(errorDetails(terminal, 'QUESTION_NOT_FOUND')).toBeNull();
    expect(errorDetails(new AskdockError('QUESTION_PENDING', 'busy', { details: { first: 'q1' } }), 'QUESTION_PENDING')).toBeNull();
    expect(errorDetails(new AskdockError('INVALID_REQUEST', 'bad', { details: [{ path: 'questions', problem: 'is required' }] }), 'INVALID_REQUEST')).toEqual([
      { path: 'questions', problem: 'is required' },
    ]);
  });

  it('[RU1] a refused ask keeps its reason for a reader: denied, or non-primary-run with the run and its parent', () => {
    const sub = new AskdockError('FORBIDDEN', 'subagent', { details: { method: 'question.request', reason: 'non-primary-run', runId: 'r2', parentRunId: 'r1' } });
    expect(errorDetails(sub, 'FORBIDDEN')).toEqual({ method: 'question.request', reason: 'non-primary-run', runId: 'r2', parentRunId: 'r1' });
    expect(errorDetails(new AskdockError('FORBIDDEN', 'denied', { details: { method: 'question.request', reason: 'denied' } }), 'FORBIDDEN')?.reason).toBe('denied');
  });

  it('[errors] the gateway\'s frame check names a refusal whose details do not fit its code', () => {
    expect(errorDetailsProblem({ code: 'QUESTION_NOT_FOUND', message: 'gone', details: { id: 'q1' } })).toBeNull();
    expect(errorDetailsProblem({ code: 'QUESTION_NOT_FOUND', message: 'gone', details: { question: 'q1' } })).toMatch(/^QUESTION_NOT_FOUND details/);
    expect(errorDetailsProblem({ code: 'UNAVAILABLE', message: 'later' })).toBeNull();
  });
});
