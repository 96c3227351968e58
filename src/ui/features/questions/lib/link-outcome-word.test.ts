import { describe, expect, it } from 'vitest';
import { answersFingerprint, SKIP_FINGERPRINT } from './resolved-here.ts';
import { questionRecord as record } from './test-record.ts';
import { linkOutcome } from './link-outcome-word.ts';

describe('link page outcome', () => {
  it('[U7] an answer this browser sent reads Answered; anything else is elsewhere, and the other outcomes keep their word', () => {
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
