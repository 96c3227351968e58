import { describe, expect, it } from 'vitest';
import { CARD_STATUSES, cardStatus } from './card-status.ts';

const async = { mode: 'async' as const, replyMessageId: undefined };
const blocking = { mode: 'blocking' as const, replyMessageId: undefined };

describe('cardStatus', () => {
  it('[U9] an answer not yet at the gateway reads as its delivery, never Answered', () => {
    expect(cardStatus(async, 'Answered', 'queued')).toBe('Queued');
    expect(cardStatus(async, 'Answered', 'sending')).toBe('Sending');
    expect(cardStatus(async, 'Answered', 'unconfirmed')).toBe('Sending');
    expect(cardStatus(async, 'Answered', 'failed')).toBe('Failed');
    expect(cardStatus(async, 'Answered elsewhere', 'failed')).toBe('Failed');
  });

  it('[U9] an async answer the gateway saved as ours reads Sent, with or without its outbox row', () => {
    expect(cardStatus(async, 'Answered', 'sent')).toBe('Sent');
    expect(cardStatus({ mode: 'async', replyMessageId: 'm1' }, 'Answered', undefined)).toBe('Sent');
  });

  it('[U7] otherwise the gateway outcome, from the one fixed set', () => {
    expect(cardStatus(blocking, 'Answered', undefined)).toBe('Answered');
    expect(cardStatus(blocking, 'Answered elsewhere (in another tab/browser)', undefined)).toBe('Answered elsewhere');
    for (const o of ['Answered elsewhere', 'Skipped', 'Expired', 'Cancelled'] as const)
      expect(CARD_STATUSES).toContain(cardStatus(blocking, o, undefined));
    expect(cardStatus(async, 'No longer pending', undefined)).toBe('No longer pending');
  });
});
