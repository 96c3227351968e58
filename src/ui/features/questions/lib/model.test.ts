import { describe, expect, it } from 'vitest';
import { deployRecord } from '../test-helpers.tsx';
import { collectAnswers, draftFromAnswers, formatTimeLeft, itemAnswer } from './model.ts';

const [env, notify] = deployRecord().questions;

describe('question model', () => {
  it('[U4] single-select sends the chosen option, else the trimmed Other text; multi-select sends Other beside the choices', () => {
    expect(itemAnswer(env, { chosen: ['Production'], other: '' })).toEqual(['Production']);
    expect(itemAnswer(env, { chosen: [], other: '  canary \n' })).toEqual(['canary']);
    expect(itemAnswer(notify, { chosen: ['Pager', 'Email'], other: ' ops ' })).toEqual(['Email', 'Pager', 'ops']);
    expect(itemAnswer(notify, { chosen: [], other: '   ' })).toEqual([]);
  });

  it('[U6] typed text equal to a label is sent as typed text, never turned into a choice here', () => {
    expect(itemAnswer(env, { chosen: [], other: 'Production' })).toEqual(['Production']);
  });

  it('[Q5] every question needs an answer before a submit', () => {
    expect(collectAnswers(deployRecord(), { env: { chosen: ['Production'], other: '' } })).toEqual({ ok: false, missing: ['notify'] });
    expect(collectAnswers(deployRecord(), { env: { chosen: [], other: 'x' }, notify: { chosen: ['Slack'], other: '' } })).toEqual({
      ok: true,
      answers: { env: ['x'], notify: ['Slack'] },
    });
  });

  it('[U9] a discarded answer rebuilds its draft: labels become choices again, anything else Other text', () => {
    expect(draftFromAnswers(deployRecord(), { env: ['production'], notify: ['Pager', 'ops', 'Email'] })).toEqual({
      env: { chosen: ['Production'], other: '' },
      notify: { chosen: ['Pager', 'Email'], other: 'ops' },
    });
    // Single-select holds text or a choice, never both.
    expect(draftFromAnswers(deployRecord(), { env: ['canary'] })).toEqual({
      env: { chosen: [], other: 'canary' },
      notify: { chosen: [], other: '' },
    });
  });

  it('[U7] time left reads m:ss', () => {
    expect(formatTimeLeft(299_001)).toBe('5:00 left');
    expect(formatTimeLeft(299_000)).toBe('4:59 left');
    expect(formatTimeLeft(3_600_000)).toBe('60:00 left');
    expect(formatTimeLeft(-5)).toBe('0:00 left');
  });
});
