import { describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../protocol/index.ts';
import { answeredByText, approvalDecision, approversText } from './answered-by.ts';

const route = { escalation: 'prod', step: 0, notified: ['ana', 'dana'], eligible: ['ana', 'dana'] };
const envItem = { id: 'env', header: 'Env', question: 'Which?', options: [{ label: 'Staging' }, { label: 'Production' }] };
const approvalItem = { id: 'approval', header: 'Bash', question: 'Allow?', kind: 'approval' as const, options: [{ label: 'Allow' }, { label: 'Deny' }] };
const record = (over: Partial<QuestionRecord>): QuestionRecord =>
  ({ id: 'q1', askedBy: 'agent', mode: 'blocking', questions: [envItem], createdAtMs: 0, expiresAtMs: null, status: 'answered', route, ...over }) as QuestionRecord;

describe('who answered a routed question (E7, E5)', () => {
  it('[E7] "Answered by <name> · <surface>", by the display name when there is one', () => {
    expect(answeredByText(record({ answers: { env: ['Staging'] }, resolvedBy: { identity: 'dana', name: 'Dana', surface: 'tui', atMs: 1 } }))).toBe('Answered by Dana · TUI');
    expect(answeredByText(record({ answers: { env: ['Staging'] }, resolvedBy: { identity: 'dana', surface: 'channel:telegram', atMs: 1 } }))).toBe('Answered by dana · Telegram');
  });

  it('[E7] an approval reads "Answered by <name> · <surface>" too; its Allow or Deny is said apart', () => {
    const by = { identity: 'dana', name: 'Dana', surface: 'control-ui', atMs: 1 };
    const allowed = record({ questions: [approvalItem], answers: { approval: ['Allow'] }, resolvedBy: by });
    const denied = record({ questions: [approvalItem], answers: { approval: ['Deny'] }, resolvedBy: by });
    expect([answeredByText(allowed), approvalDecision(allowed)]).toEqual(['Answered by Dana · Control UI', 'Allow']);
    expect([answeredByText(denied), approvalDecision(denied)]).toEqual(['Answered by Dana · Control UI', 'Deny']);
    expect(approvalDecision(record({ questions: [approvalItem], answers: { approval: ['not on a Friday'] }, resolvedBy: by }))).toBe('Deny');
    expect(approvalDecision(record({ answers: { env: ['Staging'] }, resolvedBy: by }))).toBeNull();
  });

  it('[E7][E5] a quorum reads "Answered by" the person who completed it; its approvers are listed apart, each once', () => {
    const quorum = { needed: 2, approvals: [{ identity: 'ana', name: 'Ana', surface: 'tui', atMs: 1 }] };
    const rec = record({ questions: [approvalItem], answers: { approval: ['Allow'] }, route: { ...route, quorum }, resolvedBy: { identity: 'dana', name: 'Dana', surface: 'tui', atMs: 2 } });
    expect(answeredByText(rec)).toBe('Answered by Dana · TUI');
    expect(approversText(rec)).toBe('Approvals: Ana, Dana');
    const denied = { ...rec, answers: { approval: ['Deny'] } };
    expect([answeredByText(denied), approversText(denied)]).toEqual(['Answered by Dana · TUI', null]);
  });

  it('[E7] nothing for a question that was not routed, or not answered', () => {
    const by = { identity: 'dana', surface: 'tui', atMs: 1 };
    expect(answeredByText(record({ route: undefined, answers: { env: ['Staging'] }, resolvedBy: by }))).toBeNull();
    expect(answeredByText(record({ status: 'skipped', resolvedBy: by }))).toBeNull();
  });
});
