import { describe, expect, it } from 'vitest';
import { deployRecord, lunchRecord } from '../test-helpers.tsx';
import { collectAnswers, formatTimeLeft, isDockRequest, itemAnswer, outcomeOf, pickCurrent } from './model.ts';

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

  it('[U6] the dock holds pending, unretired questions of its session and sessionless ones; blocking ones come first', () => {
    const own = deployRecord();
    const sessionless = lunchRecord({ id: 'free', sessionKey: undefined });
    expect(isDockRequest(own, 's1', {})).toBe(true);
    expect(isDockRequest(own, 's2', {})).toBe(false);
    expect(isDockRequest(sessionless, 's2', {})).toBe(true);
    expect(isDockRequest(deployRecord({ status: 'answered' }), 's1', {})).toBe(false);
    expect(isDockRequest(lunchRecord({ retiredAtMs: 1 }), 's1', {})).toBe(false);
    expect(isDockRequest(lunchRecord({ retiredAtMs: 1 }), 's1', { 'q-lunch': true })).toBe(true);
    expect(pickCurrent([lunchRecord(), own], null)?.id).toBe('q-deploy');
    expect(pickCurrent([lunchRecord(), own], 'q-lunch')?.id).toBe('q-lunch');
    expect(pickCurrent([lunchRecord(), own], 'gone')?.id).toBe('q-deploy');
  });

  it('[U7] outcomes: answered here or elsewhere, skipped, expired, cancelled, no longer pending', () => {
    const by = (identity: string) => ({ identity, surface: 'tui', atMs: 1 });
    const answered = deployRecord({ status: 'answered', resolvedBy: by('op') });
    expect(outcomeOf(answered, { answeredHere: true, identity: 'op' })).toBe('Answered');
    expect(outcomeOf(answered, { answeredHere: false, identity: 'op' })).toBe('Answered elsewhere');
    expect(outcomeOf(deployRecord({ status: 'answered', resolvedBy: by('guest') }), { answeredHere: true, identity: 'op' })).toBe(
      'Answered elsewhere',
    );
    expect(outcomeOf(deployRecord({ status: 'skipped' }), { answeredHere: false, identity: 'op' })).toBe('Skipped');
    expect(outcomeOf(deployRecord({ status: 'expired' }), { answeredHere: false, identity: 'op' })).toBe('Expired');
    expect(outcomeOf(deployRecord({ status: 'cancelled' }), { answeredHere: false, identity: 'op' })).toBe('Cancelled');
    expect(outcomeOf(lunchRecord({ retiredAtMs: 5 }), { answeredHere: false, identity: 'op' })).toBe('No longer pending');
  });

  it('[U7] time left reads m:ss', () => {
    expect(formatTimeLeft(299_001)).toBe('5:00 left');
    expect(formatTimeLeft(299_000)).toBe('4:59 left');
    expect(formatTimeLeft(3_600_000)).toBe('60:00 left');
    expect(formatTimeLeft(-5)).toBe('0:00 left');
  });
});
