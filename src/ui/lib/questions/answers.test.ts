import { describe, expect, it } from 'vitest';
import {
  answersFingerprint,
  collectAnswers,
  draftFromAnswers,
  itemAnswer,
  missingAnswerText,
  resolvedHere,
  SKIP_FINGERPRINT,
  withOptionPicked,
  withOtherText,
} from './answers.ts';
import { questionRecord as record } from './test-record.ts';
import { formatTimeLeft } from './time-left.ts';
const [env, notify] = record().questions;

describe('the answer model both surfaces use', () => {
  it('[U4] single-select: the last action wins between an option and Other text; multi-select toggles beside Other', () => {
    const typed = withOtherText(withOptionPicked({ chosen: [], other: '' }, 'Production', false), 'Production', false);
    expect(typed).toEqual({ chosen: [], other: 'Production' });
    expect(withOtherText({ chosen: ['Production'], other: '' }, '  ', false)).toEqual({ chosen: ['Production'], other: '  ' });
    expect(withOptionPicked(typed, 'Staging', false)).toEqual({ chosen: ['Staging'], other: '' });
    const multi = withOptionPicked(withOtherText(withOptionPicked({ chosen: [], other: '' }, 'Email', true), 'ops', true), 'Slack', true);
    expect(withOptionPicked(multi, 'Email', true)).toEqual({ chosen: ['Slack'], other: 'ops' });
  });

  it('[U4] single-select sends the chosen option, else the trimmed Other text; multi-select sends Other beside the choices', () => {
    expect(itemAnswer(env, { chosen: ['Production'], other: '' })).toEqual(['Production']);
    expect(itemAnswer(env, { chosen: [], other: '  canary \n' })).toEqual(['canary']);
    expect(itemAnswer(notify, { chosen: ['Pager', 'Email'], other: ' ops ' })).toEqual(['Email', 'Pager', 'ops']);
    expect(itemAnswer(notify, { chosen: [], other: '   ' })).toEqual([]);
  });

  it('[U6] typed text equal to a label is sent as typed text, never turned into a choice here', () => {
    expect(itemAnswer(env, { chosen: [], other: 'Production' })).toEqual(['Production']);
  });

  it('[Q5] every question needs an answer before a submit, and a missing one says what to do', () => {
    expect(collectAnswers(record(), { env: { chosen: ['Production'], other: '' } })).toEqual({ ok: false, missing: ['notify'] });
    expect(collectAnswers(record(), { env: { chosen: [], other: '   ' } })).toEqual({ ok: false, missing: ['env', 'notify'] });
    expect(collectAnswers(record(), { env: { chosen: [], other: 'x' }, notify: { chosen: ['Slack', 'Email'], other: 'ops' } })).toEqual({
      ok: true,
      answers: { env: ['x'], notify: ['Email', 'Slack', 'ops'] },
    });
    expect(missingAnswerText(env)).toBe('Choose an option or type an answer in Other.');
    expect(missingAnswerText(notify)).toBe('Choose at least one option or type an answer in Other.');
  });

  it('[U9] a discarded answer rebuilds its draft: labels become choices again, anything else Other text', () => {
    expect(draftFromAnswers(record(), { env: ['production'], notify: ['Pager', 'ops', 'Email'] })).toEqual({
      env: { chosen: ['Production'], other: '' },
      notify: { chosen: ['Pager', 'Email'], other: 'ops' },
    });
    // Single-select holds text or a choice, never both.
    expect(draftFromAnswers(record(), { env: ['canary'] })).toEqual({
      env: { chosen: [], other: 'canary' },
      notify: { chosen: [], other: '' },
    });
  });

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

describe('ids named like Object.prototype members', () => {
  const record = {
    questions: [
      { id: 'constructor', header: 'Env', question: 'Where?', options: [{ label: 'Staging' }, { label: 'Production' }] },
      { id: 'valueof', header: 'Who', question: 'Who?', options: [{ label: 'Email' }, { label: 'Slack' }], multiSelect: true },
    ],
  };

  it('[Q5][U6] drafts and answers are read by own property, never from Object.prototype', () => {
    expect(collectAnswers(record, {})).toEqual({ ok: false, missing: ['constructor', 'valueof'] });
    expect(collectAnswers(record, undefined)).toEqual({ ok: false, missing: ['constructor', 'valueof'] });
    const drafts = draftFromAnswers(record, {});
    expect(drafts).toEqual({ constructor: { chosen: [], other: '' }, valueof: { chosen: [], other: '' } });
    expect(collectAnswers(record, draftFromAnswers(record, { constructor: ['Production'], valueof: ['Slack', 'fax'] }))).toEqual({
      ok: true,
      answers: { constructor: ['Production'], valueof: ['Slack', 'fax'] },
    });
  });
});
