import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../protocol/index.ts';
import type { OutboxRow } from '../../../lib/outbox/machine.ts';
import { deployRecord, lunchRecord } from '../../../../testing/ui-questions.tsx';
import { summaryReply } from './summary-reply.ts';

const row = (over: Partial<OutboxRow> = {}): OutboxRow => ({
  id: 'r1',
  idempotencyKey: 'outbox-key-0001',
  sessionKey: 's1',
  questionId: 'q-lunch',
  text: '> Lunch\nSushi',
  answers: { lunch: ['Sushi'] },
  state: 'queued',
  createdAtMs: 0,
  updatedAtMs: 0,
  attempts: 0,
  ...over,
});
const message = (id: string, text: string, answers?: Record<string, string[]>): ChatMessage => ({
  id,
  sessionKey: 's1',
  role: 'user',
  text,
  authorId: 'op',
  replyTo: { questionId: 'q-lunch', ...(answers ? { answers } : {}) },
  createdAtMs: 1,
  seq: 1,
});

describe('the reply a summary reads back', () => {
  it('[U9] while pending at the gateway, our queued answer is read back from the outbox row', () => {
    expect(summaryReply(lunchRecord(), row(), undefined)).toEqual({ text: '> Lunch\nSushi', answers: { lunch: ['Sushi'] } });
    expect(summaryReply(lunchRecord(), undefined, undefined)).toBeUndefined();
  });

  it('[U9][Q9] once saved, the saved message is the truth (also after reload, with no outbox row left)', () => {
    const answered = lunchRecord({ status: 'answered', replyMessageId: 'm1', answers: { lunch: ['Sushi'] } });
    const replies = new Map([['m1', message('m1', '> Lunch\nSushi, please', { lunch: ['Sushi, please'] })]]);
    expect(summaryReply(answered, undefined, replies)).toEqual({ text: '> Lunch\nSushi, please', answers: { lunch: ['Sushi, please'] } });
    expect(summaryReply(answered, row({ state: 'sent', messageId: 'm1' }), replies)).toMatchObject({ answers: { lunch: ['Sushi'] } });
    // Saved but not loaded: our sent row's text stands in for it.
    expect(summaryReply(answered, row({ state: 'sent', messageId: 'm1' }), new Map())).toEqual({ text: '> Lunch\nSushi', answers: { lunch: ['Sushi'] } });
  });

  it('[U9] someone else\'s saved reply is never replaced by our unsent text, nor read with our answers', () => {
    const theirs = lunchRecord({ status: 'answered', replyMessageId: 'm9', answers: { lunch: ['Salad'] } });
    const failed = row({ state: 'failed', error: { code: 'QUESTION_ALREADY_TERMINAL', message: 'already answered' } });
    expect(summaryReply(theirs, failed, new Map())).toBeUndefined();
    const replies = new Map([['m9', message('m9', '> Lunch\nSalad')]]);
    expect(summaryReply(theirs, failed, replies)).toEqual({ text: '> Lunch\nSalad', answers: undefined });
  });

  it('[U7] blocking questions have no reply to read back', () => {
    expect(summaryReply(deployRecord({ status: 'answered' }), undefined, new Map())).toBeUndefined();
  });
});
