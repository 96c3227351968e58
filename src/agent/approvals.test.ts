import { describe, expect, it } from 'vitest';
import { QuestionList } from '../protocol/index.ts';
import { approvalDecision, approvalQuestion, askUserQuestionPrompts, toolDetail } from './approvals.ts';

describe('approvals (X2)', () => {
  it('[X2] a plan is shown as itself, and approving it gives the plan back as Claude Code needs', () => {
    const req = { toolName: 'ExitPlanMode', toolInput: { plan: '1. Add the table\n2. Migrate' } };
    expect(approvalQuestion(req)).toMatchObject({ header: 'ExitPlanMode', question: 'Allow ExitPlanMode?', detail: '1. Add the table\n2. Migrate' });
    expect(approvalDecision(req, ['Allow'])).toEqual({ behavior: 'allow', updatedInput: req.toolInput });
    expect(approvalDecision(req, ['Deny'])).toEqual({ behavior: 'deny', message: 'The person denied this in askdock.' });
  });

  it('[X2] a long command is one line in the question, whole in the detail; a detail past 16 000 characters is cut', () => {
    const command = `for f in *.log; do\n  gzip "$f"\ndone ${'x'.repeat(300)}`;
    const q = approvalQuestion({ toolName: 'Bash', toolInput: { command } });
    expect(q.question.startsWith('Allow Bash for f in *.log; do gzip "$f" done')).toBe(true);
    expect(q.question.endsWith('…?')).toBe(true);
    expect(q.detail).toBe(`$ ${command}`);
    expect(toolDetail('Write', { file_path: '/a', content: 'y'.repeat(20_000) })).toHaveLength(16_000);
    expect(QuestionList.safeParse([q]).success).toBe(true);
  });

  it('[X3] 1-3 questions are one prompt; 4 are two prompts of two', () => {
    const q = (n: number) => ({ question: `Q${n}?`, header: `H${n}`, options: [{ label: 'A' }, { label: 'B' }] });
    expect(askUserQuestionPrompts([q(1), q(2), q(3)]).map((p) => p.length)).toEqual([3]);
    expect(askUserQuestionPrompts([q(1), q(2), q(3), q(4)]).map((p) => p.map((x) => x.id))).toEqual([['q1', 'q2'], ['q3', 'q4']]);
  });

  it('[X2] a setMode suggestion offers what it does ("Allow edits for this session"), not "Always allow"; choosing it applies the mode', () => {
    const suggestions = [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }];
    const req = { toolName: 'Edit', toolInput: { file_path: '/src/app.ts', old_string: 'a', new_string: 'b' }, suggestions };
    expect(approvalQuestion(req).options?.map((o) => o.label)).toEqual(['Allow', 'Deny', 'Allow edits for this session']);
    expect(approvalDecision(req, ['Allow edits for this session'])).toEqual({ behavior: 'allow', updatedPermissions: suggestions });
    // A rule still reads "Always allow".
    const rule = { ...req, suggestions: [{ type: 'addRules', rules: [{ toolName: 'Edit' }], behavior: 'allow', destination: 'localSettings' }] };
    expect(approvalQuestion(rule).options?.map((o) => o.label)).toEqual(['Allow', 'Deny', 'Always allow']);
  });
});
