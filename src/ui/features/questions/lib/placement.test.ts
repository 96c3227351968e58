import { describe, expect, it } from 'vitest';
import { deployRecord, lunchRecord } from '../../../../testing/ui-questions.tsx';
import { INBOX_KEY } from '../../../lib/inbox.ts';
import { answersFingerprint } from './resolved-here.ts';
import { inDock, inTranscript, NO_MARKS, outcomeOf, pickCurrent, type LocalMarks } from './placement.ts';

const marks = (over: Partial<LocalMarks> = {}): LocalMarks => ({ ...NO_MARKS, ...over });
const none = { sentHere: [], identity: 'op' };
const retired = lunchRecord({ retiredAtMs: 5 });

describe('where a question shows, and what its summary says', () => {
  it('[U6][U15] the dock holds pending, unretired questions of its session; sessionless ones only in the Inbox; blocking ones come first', () => {
    const own = deployRecord();
    const sessionless = lunchRecord({ id: 'free', sessionKey: undefined });
    expect(inDock(own, 's1', NO_MARKS)).toBe(true);
    expect(inDock(own, 's2', NO_MARKS)).toBe(false);
    expect(inDock(sessionless, 's2', NO_MARKS)).toBe(false);
    expect(inDock(sessionless, INBOX_KEY, NO_MARKS)).toBe(true);
    expect(inDock(own, INBOX_KEY, NO_MARKS)).toBe(false);
    expect(inTranscript({ ...sessionless, status: 'skipped' }, INBOX_KEY, NO_MARKS)).toBe(true);
    expect(inTranscript({ ...sessionless, status: 'skipped' }, 's1', NO_MARKS)).toBe(false);
    expect(inDock(deployRecord({ status: 'answered' }), 's1', NO_MARKS)).toBe(false);
    expect(pickCurrent([lunchRecord(), own], null)?.id).toBe('q-deploy');
    expect(pickCurrent([lunchRecord(), own], 'q-lunch')?.id).toBe('q-lunch');
    expect(pickCurrent([lunchRecord(), own], 'gone')?.id).toBe('q-deploy');
  });

  it('[G6][G11] an approval the policy or a grant decided has no summary in the transcript (its notice tells it); one a person answered has', () => {
    const decided = deployRecord({ status: 'answered', answers: { env: ['Allow'] }, resolvedBy: { identity: 'policy', surface: 'policy', atMs: 2 } });
    expect(inTranscript(decided, 's1', NO_MARKS)).toBe(false);
    expect(inTranscript({ ...decided, resolvedBy: { identity: 'ana', surface: 'control-ui', atMs: 2 } }, 's1', NO_MARKS)).toBe(true);
    expect(inDock(decided, 's1', NO_MARKS)).toBe(false);
  });

  it('[Q10][U8] a retired reminder leaves the dock for the transcript, where it reads "No longer pending"', () => {
    expect(inDock(retired, 's1', NO_MARKS)).toBe(false);
    expect(inTranscript(retired, 's1', NO_MARKS)).toBe(true);
    expect(outcomeOf(retired, none)).toBe('No longer pending');
    // Not retired: in the dock, not yet in the transcript.
    expect(inDock(lunchRecord(), 's1', NO_MARKS)).toBe(true);
    expect(inTranscript(lunchRecord(), 's1', NO_MARKS)).toBe(false);
  });

  it('[Q10][U8] Answer (or being answered as it retired) puts the reminder back in the dock; the transcript keeps it too', () => {
    expect(inDock(retired, 's1', marks({ reopenedOver: 5 }))).toBe(true);
    expect(inTranscript(retired, 's1', marks({ reopenedOver: 5 }))).toBe(true);
    expect(outcomeOf(retired, { ...none, marks: marks({ reopenedOver: 5 }) })).toBe('No longer pending');
  });

  it('[U8][Q10] retirement holds for a reopened question: one put back before it retired, or over an earlier retirement, leaves the dock when it retires (again)', () => {
    // Put back while pending (an undone skip, a discarded answer), then retired.
    expect(inDock(lunchRecord(), 's1', marks({ reopenedOver: 0 }))).toBe(true);
    expect(inDock(retired, 's1', marks({ reopenedOver: 0 }))).toBe(false);
    // Answer on a reminder retired at 5; a later run retires it again at 9.
    expect(inDock(lunchRecord({ retiredAtMs: 9 }), 's1', marks({ reopenedOver: 5 }))).toBe(false);
    expect(inTranscript(lunchRecord({ retiredAtMs: 9 }), 's1', marks({ reopenedOver: 5 }))).toBe(true);
  });

  it('[Q10][U9] retiring never hides an answer on its way: queued, sending, unconfirmed or failed, it stays Answered with its delivery', () => {
    for (const delivery of ['queued', 'sending', 'unconfirmed', 'failed', 'sent'] as const) {
      const m = marks({ delivery });
      expect(inDock(retired, 's1', m)).toBe(false);
      expect(inDock(lunchRecord(), 's1', m)).toBe(false);
      expect(inTranscript(lunchRecord(), 's1', m)).toBe(true);
      expect(outcomeOf(retired, { ...none, marks: m })).toBe('Answered');
      expect(outcomeOf(lunchRecord(), { ...none, marks: m })).toBe('Answered');
    }
  });

  it('[U8][Q10] a skip here sends nothing: the question leaves the dock and reads Skipped, retired or not', () => {
    const m = marks({ skippedAtMs: 1 });
    expect(inDock(lunchRecord(), 's1', m)).toBe(false);
    expect(inTranscript(lunchRecord(), 's1', m)).toBe(true);
    expect(outcomeOf(lunchRecord(), { ...none, marks: m })).toBe('Skipped');
    expect(outcomeOf(retired, { ...none, marks: m })).toBe('Skipped');
    // Blocking questions skip at the gateway; a stray local mark means nothing for them.
    expect(inDock(deployRecord(), 's1', m)).toBe(true);
  });

  it('[U7] the gateway outcome wins over anything local', () => {
    const m = marks({ skippedAtMs: 1, delivery: 'failed' });
    expect(outcomeOf(lunchRecord({ status: 'expired' }), { ...none, marks: m })).toBe('Expired');
    expect(outcomeOf(lunchRecord({ status: 'cancelled' }), { ...none, marks: m })).toBe('Cancelled');
    expect(inDock(lunchRecord({ status: 'expired' }), 's1', NO_MARKS)).toBe(false);
  });

  it('[U7] outcomes: answered here or elsewhere, skipped, expired, cancelled', () => {
    const by = (identity: string) => ({ identity, surface: 'tui', atMs: 1 });
    const answers = { env: ['Production'], notify: ['Email', 'ops'] };
    const answered = deployRecord({ status: 'answered', answers, resolvedBy: by('op') });
    const sent = [answersFingerprint({ notify: ['ops ', 'email'], env: ['production'] })];
    expect(outcomeOf(answered, { sentHere: sent, identity: 'op' })).toBe('Answered');
    expect(outcomeOf(answered, { sentHere: [], identity: 'op' })).toBe('Answered elsewhere');
    // Sent from here but lost the race: the stored answers are someone else's.
    expect(outcomeOf(answered, { sentHere: [answersFingerprint({ env: ['Staging'] })], identity: 'op' })).toBe('Answered elsewhere');
    // A try that the gateway took while its reply was lost, then a retry with other answers: the stored one is still ours.
    expect(outcomeOf(answered, { sentHere: [...sent, answersFingerprint({ env: ['Staging'] })], identity: 'op' })).toBe('Answered');
    expect(outcomeOf({ ...answered, resolvedBy: by('guest') }, { sentHere: sent, identity: 'op' })).toBe('Answered elsewhere');
    expect(outcomeOf(deployRecord({ status: 'skipped' }), none)).toBe('Skipped');
    expect(outcomeOf(deployRecord({ status: 'expired' }), none)).toBe('Expired');
    expect(outcomeOf(deployRecord({ status: 'cancelled' }), none)).toBe('Cancelled');
  });

  it('[U9][Q9] an async answer is ours exactly when the saved reply is the message our outbox row got back', () => {
    const record = lunchRecord({ status: 'answered', answers: { lunch: ['Sushi'] }, replyMessageId: 'm1', resolvedBy: { identity: 'op', surface: 'control-ui', atMs: 1 } });
    const sent = marks({ delivery: 'sent' });
    expect(outcomeOf(record, { ...none, marks: sent, sentMessageId: 'm1' })).toBe('Answered');
    expect(outcomeOf(record, { ...none, marks: sent, sentMessageId: 'm2' })).toBe('Answered elsewhere (in another tab/browser)');
    expect(outcomeOf(record, { ...none, identity: 'guest', marks: sent, sentMessageId: 'm2' })).toBe('Answered elsewhere');
    // An edited reply carries answers read back from its text; the message id still tells.
    expect(outcomeOf({ ...record, answers: undefined }, { ...none, marks: sent, sentMessageId: 'm1' })).toBe('Answered');
    // Our send refused (someone answered first): the fingerprint decides, as for any other question.
    const fp = [answersFingerprint({ lunch: ['Salad'] })];
    expect(outcomeOf(record, { sentHere: fp, identity: 'guest', marks: marks({ delivery: 'failed' }) })).toBe('Answered elsewhere');
  });

  it('[U7] the same person answering from another tab or browser reads "Answered elsewhere (in another tab/browser)"; another identity or surface "Answered elsewhere"', () => {
    const answered = (identity: string, surface: string) =>
      deployRecord({ status: 'answered', answers: { env: ['Production'], notify: ['Email'] }, resolvedBy: { identity, surface, atMs: 1 } });
    const viewer = { sentHere: [], identity: 'op' };
    expect(outcomeOf(answered('op', 'control-ui'), viewer)).toBe('Answered elsewhere (in another tab/browser)');
    expect(outcomeOf(answered('op', 'link'), viewer)).toBe('Answered elsewhere (in another tab/browser)');
    expect(outcomeOf(answered('op', 'tui'), viewer)).toBe('Answered elsewhere');
    expect(outcomeOf(answered('op', 'channel:slack'), viewer)).toBe('Answered elsewhere');
    expect(outcomeOf(answered('guest', 'control-ui'), viewer)).toBe('Answered elsewhere');
    expect(outcomeOf(answered('op', 'control-ui'), { ...viewer, identity: undefined })).toBe('Answered elsewhere');
  });
});
