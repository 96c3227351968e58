import { describe, expect, it } from 'vitest';
import type { StoredQuestion } from '../store/types.ts';
import { approvalItems, approvalOffers } from './approval-question.ts';
import { decisionOf } from './approval-decision.ts';
import { storedItems } from '../questions/question-records.ts';

const facts = { tool: 'Bash', input: { command: 'npm run build' }, cwd: '/repo', agent: 'agent' };
const verdict = { decision: 'ask' as const, matchedRules: [], decidedBy: 'unmatched' as const };
const offers = approvalOffers('Bash(npm run build *)', { session: true, project: true });
const record = (over: Partial<StoredQuestion>): StoredQuestion => ({
  id: 'q1',
  askedBy: 'agent',
  mode: 'blocking',
  questions: storedItems(approvalItems(facts, { tool: 'Bash', input: facts.input, cwd: '/repo' }, verdict, offers)),
  createdAtMs: 0,
  expiresAtMs: 1,
  status: 'pending',
  approval: { request: { tool: 'Bash', input: facts.input, cwd: '/repo' }, digest: 'd', askedRules: ['r1'], offers },
  ...over,
});
const by = { identity: 'op', surface: 'control-ui', atMs: 5 };

describe('an approval\'s answer as a decision (G11, Q12)', () => {
  it('[G7] the gateway\'s approval has five options: Allow, Deny and the three offers, each naming its rule', () => {
    const [item] = record({}).questions;
    expect(item.options).toEqual([
      { label: 'Allow', description: 'This request only. Asked because no rule matched.' },
      { label: 'Deny' },
      { label: 'Always allow in this session', description: 'Rule: Bash(npm run build *)' },
      { label: 'Always allow in this project for 7 days', description: 'Rule: Bash(npm run build *)' },
      { label: 'Always allow for this agent for 7 days', description: 'Rule: Bash(npm run build *)' },
    ]);
    expect(item.detail).toBe('npm run build\n\nin /repo');
  });

  it('[G11] Allow and every offer allow, Deny denies, typed text denies with it, expiry denies by timeout, pending and cancelled tell none', () => {
    const answered = (value: string) => decisionOf(record({ status: 'answered', answers: { approval: [value] }, resolvedBy: by }));
    for (const label of ['Allow', ...offers.map((o) => o.label)]) expect(answered(label)).toEqual({ behavior: 'allow', decidedBy: 'person', rules: ['r1'], resolvedBy: by });
    expect(answered('Deny')).toEqual({ behavior: 'deny', decidedBy: 'person', rules: ['r1'], resolvedBy: by });
    expect(answered('use the staging script')).toEqual({ behavior: 'deny', decidedBy: 'person', rules: ['r1'], message: 'use the staging script', resolvedBy: by });
    expect(decisionOf(record({ status: 'expired' }))).toMatchObject({ behavior: 'deny', decidedBy: 'timeout', rules: ['r1'] });
    expect(decisionOf(record({}))).toBeUndefined();
    expect(decisionOf(record({ status: 'cancelled' }))).toBeUndefined();
    expect(decisionOf(record({ approval: undefined, status: 'answered', answers: { approval: ['Allow'] } }))).toBeUndefined();
  });
});
