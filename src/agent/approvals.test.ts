import { describe, expect, it } from 'vitest';
import { approvedByText, askUserQuestionPrompts } from './approvals.ts';

describe('approvals (X3)', () => {
  it('[X3] 1-3 questions are one prompt; 4 are two prompts of two', () => {
    const q = (n: number) => ({ question: `Q${n}?`, header: `H${n}`, options: [{ label: 'A' }, { label: 'B' }] });
    expect(askUserQuestionPrompts([q(1), q(2), q(3)]).map((p) => p.length)).toEqual([3]);
    expect(askUserQuestionPrompts([q(1), q(2), q(3), q(4)]).map((p) => p.map((x) => x.id))).toEqual([['q1', 'q2'], ['q3', 'q4']]);
  });
});

describe('who approved (E8)', () => {
  it('[E8] names one approver, a quorum\'s two, or more; nobody when a rule decided', () => {
    expect(approvedByText(['Ana'])).toBe('approved by Ana');
    expect(approvedByText(['Ana', 'Bo'])).toBe('approved by Ana and Bo');
    expect(approvedByText(['Ana', 'Bo', 'Cy'])).toBe('approved by Ana, Bo and Cy');
    expect(approvedByText([])).toBeUndefined();
  });
});
