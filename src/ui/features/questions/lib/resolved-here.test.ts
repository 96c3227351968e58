import { describe, expect, it } from 'vitest';
import { answersFingerprint, resolvedHere, SKIP_FINGERPRINT } from './resolved-here.ts';
import { questionRecord as record } from '../../../../testing/question-record.ts';
import { formatTimeLeft } from './time-left.ts';

describe('what this browser sent', () => {
  it('[U7] an ended record is ours when it holds something this browser sent, under the same identity', () => {
    const answers = { env: ['Production'], notify: ['Email', 'ops'] };
    const answered = record({ status: 'answered', answers, resolvedBy: { identity: 'op', surface: 'link', atMs: 3 } });
    const ours = [answersFingerprint({ notify: ['ops ', 'email'], env: ['production'] })];
    expect(resolvedHere(answered, ours, 'op')).toBe(true);
    expect(resolvedHere(answered, [answersFingerprint({ env: ['Staging'] })], 'op')).toBe(false);
    expect(resolvedHere(answered, ours, 'someone-else')).toBe(false);
    expect(resolvedHere(record({ status: 'skipped' }), [SKIP_FINGERPRINT], 'op')).toBe(true);
    expect(resolvedHere(record({ status: 'skipped' }), ours, 'op')).toBe(false);
    expect(resolvedHere(record({ status: 'expired' }), [SKIP_FINGERPRINT, ...ours], 'op')).toBe(false);
  });

  it('[U7] time left reads m:ss', () => {
    expect(formatTimeLeft(299_001)).toBe('5:00 left');
    expect(formatTimeLeft(299_000)).toBe('4:59 left');
    expect(formatTimeLeft(3_600_000)).toBe('60:00 left');
    expect(formatTimeLeft(-5)).toBe('0:00 left');
  });
});
