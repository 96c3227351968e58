import { describe, expect, it } from 'vitest';
import { answerLines, endedOutcome, resolvedNotice, summaryLine } from './summary.ts';

const env = { id: 'env', header: 'Environment', question: 'Where to deploy?', options: [{ label: 'Staging' }, { label: 'Production' }] };
const notify = { id: 'notify', header: 'Notify', question: 'Who should hear about it?', options: [{ label: 'Email' }, { label: 'Slack' }], multiSelect: true };

describe('the one-line summary', () => {
  it('[T2] writes one `Header: value, value` line per question, in question order', () => {
    expect(answerLines([env, notify], { notify: ['Email', 'Slack'], env: ['Staging'] })).toEqual(['Environment: Staging', 'Notify: Email, Slack']);
  });

  it('[T2] falls back to the question when a header is empty and says when a question got no answer', () => {
    expect(answerLines([{ ...env, header: '' }, notify], { env: ['Production'], notify: [] })).toEqual([
      'Where to deploy?: Production',
      'Notify: (no answer)',
    ]);
  });

  it('[V5] puts the lines on one line parted by a middle dot', () => {
    expect(summaryLine([env, notify], { env: ['Staging'], notify: ['Email', 'Slack'] })).toBe('Environment: Staging · Notify: Email, Slack');
  });

  it('[V5] notice: a tick and the summary when answered here, the outcome word otherwise, nothing while pending', () => {
    const record = { questions: [env, notify], answers: { env: ['Staging'], notify: ['Email', 'Slack'] } };
    expect(resolvedNotice({ ...record, status: 'answered' }, true)).toBe('✓ Environment: Staging · Notify: Email, Slack');
    expect(resolvedNotice({ ...record, status: 'answered' }, false)).toBe('Answered elsewhere');
    expect(resolvedNotice({ ...record, status: 'skipped' }, true)).toBe('Skipped');
    expect(resolvedNotice({ ...record, status: 'expired' }, false)).toBe('Expired');
    expect(resolvedNotice({ ...record, status: 'cancelled' }, false)).toBe('Cancelled');
    expect(resolvedNotice({ ...record, status: 'pending' }, false)).toBeNull();
  });

  it('[V5] names a chosen option without its ` (Recommended)` mark', () => {
    const marked = { ...env, options: [{ label: 'Staging (Recommended)' }, { label: 'Production' }] };
    expect(resolvedNotice({ questions: [marked, notify], answers: { env: ['Staging (Recommended)'], notify: ['Email'] }, status: 'answered' }, true)).toBe(
      '✓ Environment: Staging · Notify: Email',
    );
  });

  it('[U7] outcome words for every ended status', () => {
    expect(endedOutcome('answered', true)).toBe('Answered');
    expect(endedOutcome('answered', false)).toBe('Answered elsewhere');
    expect(endedOutcome('skipped', false)).toBe('Skipped');
    expect(endedOutcome('pending', true)).toBeNull();
  });
});
