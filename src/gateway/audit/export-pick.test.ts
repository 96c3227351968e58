import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../audit/index.ts';
import { pickEntries } from './export-pick.ts';

const entry = (event: string, questionId: string, over: Partial<AuditEntry> = {}) => ({ atMs: 1, event, questionId, ...over }) as AuditEntry;

describe('audit export --agent (L5)', () => {
  it('[L5] picks a request the policy or a grant decided by its own agentId, and does not count it as an asker it could not tell', () => {
    const entries = [
      entry('question.asked', 'q1', { identity: 'agent', agentId: 'agent' }),
      entry('question.answered', 'q1', { agentId: 'agent' }),
      entry('policy.allowed', 'q2', { agentId: 'agent', detail: { agentKind: 'claude-code' } }),
      entry('policy.denied', 'q3', { agentId: 'agent2', detail: { agentKind: 'codex' } }),
      entry('grant.allowed', 'q4', { agentId: 'agent', detail: { agentKind: 'claude-code' } }),
    ];
    const { chosen, agentUnknown } = pickEntries({ agentId: 'agent' }, entries, (e) => e);
    expect(chosen.map((e) => e.questionId)).toEqual(['q1', 'q1', 'q2', 'q4']);
    expect(agentUnknown).toBe(0);
  });

  it('[L5] counts a question entry whose asked entry is not in the log, and an older policy decision that holds the kind as its agent', () => {
    const { chosen, agentUnknown } = pickEntries({ agentId: 'agent' }, [entry('question.answered', 'q9', { agentId: 'agent' }), entry('policy.allowed', 'q8', { agentId: 'claude-code' })], (e) => e);
    expect(chosen).toHaveLength(1);
    expect(agentUnknown).toBe(2);
  });
});
