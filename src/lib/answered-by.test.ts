import { describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../protocol/index.ts';
import { answeredByText } from './answered-by.ts';

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

  it('[E7] an approval reads "Approved by Dana" for an Allow and "Denied by" for a Deny', () => {
    const by = { identity: 'dana', name: 'Dana', surface: 'control-ui', atMs: 1 };
    expect(answeredByText(record({ questions: [approvalItem], answers: { approval: ['Allow'] }, resolvedBy: by }))).toBe('Approved by Dana · Control UI');
    expect(answeredByText(record({ questions: [approvalItem], answers: { approval: ['Deny'] }, resolvedBy: by }))).toBe('Denied by Dana · Control UI');
  });

  it('[E5] a quorum names each approver once', () => {
    const quorum = { needed: 2, approvals: [{ identity: 'ana', name: 'Ana', surface: 'tui', atMs: 1 }] };
    const rec = record({ questions: [approvalItem], answers: { approval: ['Allow'] }, route: { ...route, quorum }, resolvedBy: { identity: 'dana', name: 'Dana', surface: 'tui', atMs: 2 } });
    expect(answeredByText(rec)).toBe('Approved by Ana and Dana');
  });

  it('[E7] nothing for a question that was not routed, or not answered', () => {
    const by = { identity: 'dana', surface: 'tui', atMs: 1 };
    expect(answeredByText(record({ route: undefined, answers: { env: ['Staging'] }, resolvedBy: by }))).toBeNull();
    expect(answeredByText(record({ status: 'skipped', resolvedBy: by }))).toBeNull();
  });
});
