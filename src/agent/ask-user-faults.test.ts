import { describe, expect, it } from 'vitest';
import { validateAskUser } from './ask-user.ts';

describe('ask_user faults named at once', () => {
  it('[T3] a question without options names that beside its other missing fields, so one retry fixes the call', () => {
    const v = validateAskUser({ questions: [{ id: 'deploy_target', question: 'Where should I deploy?', multiSelect: 'no' }] });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.problems.map((p) => p.path)).toEqual(['questions[0].header', 'questions[0].multiSelect', 'questions[0].options']);
  });
});
