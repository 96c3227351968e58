import { describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../../../protocol/index.ts';
import { collectAnswers, linkOutcome, answersFingerprint, SKIP_FINGERPRINT } from './answers.ts';

const record = (over: Partial<QuestionRecord> = {}): QuestionRecord => ({
  id: 'q1',
  askedBy: 'agent',
  mode: 'blocking',
  questions: [
    { id: 'env', header: 'Env', question: 'Where?', options: [{ label: 'Staging' }, { label: 'Production' }] },
    { id: 'notify', header: 'Notify', question: 'Who?', options: [{ label: 'Email' }, { label: 'Slack' }], multiSelect: true },
  ],
  createdAtMs: 1,
  expiresAtMs: 2,
  status: 'pending',
  ...over,
});

describe('link page answers', () => {
  it('[U4] single-select sends the choice or the Other text; multi-select sends choices in option order, then Other', () => {
    const result = collectAnswers(record(), {
      env: { chosen: [], other: '  canary  ' },
      notify: { chosen: ['Slack', 'Email'], other: 'ops' },
    });
    expect(result).toEqual({ ok: true, answers: { env: ['canary'], notify: ['Email', 'Slack', 'ops'] } });
  });

  it('[Q5] names every question still unanswered', () => {
    expect(collectAnswers(record(), { env: { chosen: [], other: '   ' } })).toEqual({ ok: false, missing: ['env', 'notify'] });
  });

  it('[U7] an answer this page sent reads Answered; anything else is elsewhere, and the other outcomes keep their word', () => {
    const answers = { env: ['Production'], notify: ['Email'] };
    const answered = record({ status: 'answered', answers, resolvedBy: { identity: 'op', surface: 'link', atMs: 3 } });
    expect(linkOutcome(answered, [answersFingerprint({ env: ['production'], notify: ['Email'] })], 'op')).toEqual({ outcome: 'Answered', ours: true });
    expect(linkOutcome(answered, [answersFingerprint({ env: ['Staging'], notify: ['Email'] })], 'op')).toEqual({ outcome: 'Answered elsewhere', ours: false });
    expect(linkOutcome(answered, [answersFingerprint(answers)], 'someone-else')?.outcome).toBe('Answered elsewhere');
    expect(linkOutcome(record({ status: 'skipped' }), [SKIP_FINGERPRINT], 'op')).toEqual({ outcome: 'Skipped', ours: true });
    expect(linkOutcome(record({ status: 'skipped' }), [], 'op')).toEqual({ outcome: 'Skipped', ours: false });
    expect(linkOutcome(record({ status: 'expired' }), [], 'op')?.outcome).toBe('Expired');
    expect(linkOutcome(record({ status: 'cancelled' }), [], 'op')?.outcome).toBe('Cancelled');
    expect(linkOutcome(record(), [], 'op')).toBeNull();
  });
});
