import { describe, expect, it } from 'vitest';
import { askUserQuestionPrompts, toolDetail } from './approvals.ts';

describe('approvals (X2, X3)', () => {
  it('[X2] what a tool will do is shown whole; a detail past 16 000 characters is cut', () => {
    const command = `for f in *.log; do\n  gzip "$f"\ndone`;
    expect(toolDetail('Bash', { command })).toBe(`$ ${command}`);
    expect(toolDetail('ExitPlanMode', { plan: '1. Add the table\n2. Migrate' })).toBe('1. Add the table\n2. Migrate');
    expect(toolDetail('Write', { file_path: '/a', content: 'y'.repeat(20_000) })).toHaveLength(16_000);
  });

  it('[X3] 1-3 questions are one prompt; 4 are two prompts of two', () => {
    const q = (n: number) => ({ question: `Q${n}?`, header: `H${n}`, options: [{ label: 'A' }, { label: 'B' }] });
    expect(askUserQuestionPrompts([q(1), q(2), q(3)]).map((p) => p.length)).toEqual([3]);
    expect(askUserQuestionPrompts([q(1), q(2), q(3), q(4)]).map((p) => p.map((x) => x.id))).toEqual([['q1', 'q2'], ['q3', 'q4']]);
  });
});
