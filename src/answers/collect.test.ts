import { describe, expect, it } from 'vitest';
import { collectAnswers, draftFromAnswers, itemAnswer, missingAnswerText, withOptionPicked, withOtherText } from './collect.ts';

const env = { id: 'env', header: 'Env', question: 'Where?', options: [{ label: 'Staging (Recommended)' }, { label: 'Production' }] };
const notify = { id: 'notify', header: 'Notify', question: 'Who?', options: [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }], multiSelect: true };
const record = () => ({ questions: [env, notify] });

describe('collecting answers from a draft', () => {
  it('[U4] single-select: the last action wins between an option and Other text; multi-select toggles beside Other', () => {
    const typed = withOtherText(env, withOptionPicked(env, { chosen: [], other: '' }, 'Production'), 'Production');
    expect(typed).toEqual({ chosen: [], other: 'Production' });
    expect(withOtherText(env, { chosen: ['Production'], other: '' }, '  ')).toEqual({ chosen: ['Production'], other: '  ' });
    expect(withOptionPicked(env, typed, 'Staging')).toEqual({ chosen: ['Staging'], other: '' });
    const multi = withOptionPicked(notify, withOtherText(notify, withOptionPicked(notify, { chosen: [], other: '' }, 'Email'), 'ops'), 'Slack');
    expect(withOptionPicked(notify, multi, 'Email')).toEqual({ chosen: ['Slack'], other: 'ops' });
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
