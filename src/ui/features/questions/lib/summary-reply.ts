import type { Answers, ChatMessage, QuestionRecord } from '../../../../protocol/index.ts';
import type { OutboxRow } from '../../../lib/outbox/machine.ts';

export type SummaryReply = { text: string; answers?: Answers };

/**
 * The reply an async question's summary reads back (U9): the saved message once the gateway names it and it is
 * loaded, else this browser's own outbox row while it is (or was, and matches) ours. Never another person's
 * text in place of ours, nor our unsent text in place of theirs.
 */
export function summaryReply(
  record: QuestionRecord,
  row: OutboxRow | undefined,
  replies: ReadonlyMap<string, ChatMessage> | undefined,
): SummaryReply | undefined {
  if (record.mode !== 'async') return undefined;
  const ours = !!row && (record.status === 'pending' || (row.messageId !== undefined && row.messageId === record.replyMessageId));
  const saved = record.status === 'answered' && record.replyMessageId ? replies?.get(record.replyMessageId) : undefined;
  // Our row's answers wrote our text; a saved reply of someone else's brings its own.
  if (saved) return { text: saved.text, answers: (ours ? row?.answers : undefined) ?? saved.replyTo?.answers };
  if (ours && row) return { text: row.text, answers: row.answers };
  return undefined;
}
