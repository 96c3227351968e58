import type { QuestionRecord } from '../../../../protocol/index.ts';
import { DELIVERY_WORDS, type OutboxState } from '../../../lib/outbox/machine.ts';
import type { Outcome } from './placement.ts';
import { shownOutcome } from './resolved-here.ts';

/** The one status a question's card shows (U7, U9): never "Answered" beside "Queued". */
export const CARD_STATUSES = [
  'Queued',
  'Sending',
  'Sent',
  'Failed',
  'Answered',
  'Answered elsewhere',
  'Skipped',
  'Expired',
  'Cancelled',
] as const;
export type CardStatus = (typeof CARD_STATUSES)[number] | 'No longer pending' | 'Pending';

/**
 * An answer of this browser not yet saved at the gateway reads as its delivery (Queued, Sending, Failed): it is not
 * answered until the gateway has it. An async answer saved as this browser's reply reads Sent (U9); everything else
 * reads as the gateway's outcome. An untouched retired reminder keeps U8's "No longer pending".
 */
export function cardStatus(record: Pick<QuestionRecord, 'mode' | 'replyMessageId'>, outcome: Outcome, delivery: OutboxState | undefined): CardStatus {
  if (delivery !== undefined && delivery !== 'sent') return DELIVERY_WORDS[delivery];
  if (record.mode === 'async' && outcome === 'Answered' && (delivery === 'sent' || record.replyMessageId !== undefined)) return 'Sent';
  return shownOutcome(outcome).label as CardStatus;
}
