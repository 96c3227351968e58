import { describe, expect, it } from 'vitest';
import { deployRecord, lunchRecord } from '../test-helpers.tsx';
import { answersFingerprint, collectAnswers, formatTimeLeft, isDockRequest, itemAnswer, outcomeOf, pickCurrent } from './model.ts';

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
    const answers = { env: ['Production'], notify: ['Email', 'ops'] };
    const answered = deployRecord({ status: 'answered', answers, resolvedBy: by('op') });
    const sent = answersFingerprint({ notify: ['ops ', 'email'], env: ['production'] });
    expect(outcomeOf(answered, { sentHere: sent, identity: 'op' })).toBe('Answered');
    expect(outcomeOf(answered, { sentHere: undefined, identity: 'op' })).toBe('Answered elsewhere');
    // Sent from here but lost the race: the stored answers are someone else's.
    expect(outcomeOf(answered, { sentHere: answersFingerprint({ env: ['Staging'] }), identity: 'op' })).toBe('Answered elsewhere');
    expect(outcomeOf({ ...answered, resolvedBy: by('guest') }, { sentHere: sent, identity: 'op' })).toBe('Answered elsewhere');
    const none = { sentHere: undefined, identity: 'op' };
    expect(outcomeOf(deployRecord({ status: 'skipped' }), none)).toBe('Skipped');
    expect(outcomeOf(deployRecord({ status: 'expired' }), none)).toBe('Expired');
    expect(outcomeOf(deployRecord({ status: 'cancelled' }), none)).toBe('Cancelled');
    expect(outcomeOf(lunchRecord({ retiredAtMs: 5 }), none)).toBe('No longer pending');
  });

  it('[U7] time left reads m:ss', () => {
    expect(formatTimeLeft(299_001)).toBe('5:00 left');
    expect(formatTimeLeft(299_000)).toBe('4:59 left');
    expect(formatTimeLeft(3_600_000)).toBe('60:00 left');
    expect(formatTimeLeft(-5)).toBe('0:00 left');
  });
});
