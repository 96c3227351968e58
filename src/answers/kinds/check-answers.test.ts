import { describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../../protocol/index.ts';
import type { InputSpec } from '../../protocol/rules.ts';
import { normaliseAnswers } from './check-answers.ts';

const items = (input: InputSpec): QuestionRecord['questions'] => [{ id: 'restart', header: 'Restart', question: 'Restart after?', options: [], kind: 'input', input }];

describe('normaliseAnswers', () => {
  it('[Q12][Q5] an input marked required: false may go unanswered; without it, it needs an answer', () => {
    expect(normaliseAnswers(items({ type: 'boolean', required: false }), {})).toEqual({ ok: true, answers: {} });
    expect(normaliseAnswers(items({ type: 'boolean' }), {})).toEqual({ ok: false, problems: [{ questionId: 'restart', problem: 'needs an answer' }] });
    expect(normaliseAnswers(items({ type: 'boolean', required: false }), { restart: ['yes'] })).toEqual({ ok: true, answers: { restart: ['true'] } });
  });
});
