import type { QuestionRecord } from '../../../../protocol/index.ts';
import { endedOutcome, type EndedOutcome } from '../../../../answers/summary.ts';
import { dockKeyOf } from '../../../lib/inbox.ts';
import type { OutboxState } from '../../../lib/outbox/machine.ts';
import { ANSWERED_IN_ANOTHER_TAB, answeredInAnotherTab, resolvedHere } from './resolved-here.ts';

/** The outcome word a summary shows (U7, U8). */
export type Outcome = EndedOutcome | typeof ANSWERED_IN_ANOTHER_TAB | 'No longer pending' | 'Pending';

/** What this browser knows of a question beside the gateway's record. */
export type LocalMarks = {
  /**
   * Put back in the dock (Answer, an undone skip, a discarded answer, kept while being answered) over the retirement
   * with this `retiredAtMs` (0: over none); a later retirement holds (U8).
   */
  reopenedOver: number | undefined;
  /** Skipped here; an async skip sends nothing, so only this browser knows (U8). */
  skippedAtMs: number | undefined;
  /** The state of the outbox row carrying this question's async answer, if there is one (U9). */
  delivery: OutboxState | undefined;
};

export const NO_MARKS: LocalMarks = Object.freeze({ reopenedOver: undefined, skippedAtMs: undefined, delivery: undefined });

/** An async question answered or skipped here is done with, as far as the dock goes, whatever the gateway says yet. */
const handledHere = (record: QuestionRecord, marks: LocalMarks) =>
  record.mode === 'async' && (marks.skippedAtMs !== undefined || marks.delivery !== undefined);

/**
 * [U8][Q10][U15] A question sits in its session's dock (sessionless ones in the Inbox's) while pending, unless this browser
 * already answered (outbox) or skipped it; a retired reminder only when it was put back, and only until it retires again.
 */
export function inDock(record: QuestionRecord, sessionKey: string, marks: LocalMarks): boolean {
  if (record.status !== 'pending') return false;
  if (dockKeyOf(record) !== sessionKey) return false;
  if (handledHere(record, marks)) return false;
  return record.retiredAtMs === undefined || (marks.reopenedOver !== undefined && record.retiredAtMs <= marks.reopenedOver);
}

/**
 * [U7][U8][U9] The transcript keeps a summary of every ended question, every retired reminder, and every async
 * question answered into the outbox or skipped here (it stays pending at the gateway until its reply is saved).
 */
export function inTranscript(record: QuestionRecord, sessionKey: string, marks: LocalMarks): boolean {
  if (dockKeyOf(record) !== sessionKey) return false;
  // G6/G11: an approval the policy or a grant decided asked nobody: its one-line notice in the conversation tells it.
  if (record.resolvedBy?.surface === 'policy') return false;
  return record.status !== 'pending' || record.retiredAtMs !== undefined || handledHere(record, marks);
}

/** The request to show: the remembered one while still docked, else the oldest blocking one, else the oldest. */
export function pickCurrent(requests: QuestionRecord[], currentId: string | null): QuestionRecord | undefined {
  return requests.find((r) => r.id === currentId) ?? requests.find((r) => r.mode === 'blocking') ?? requests[0];
}

export type OutcomeContext = {
  /** Fingerprints of the answers this browser sent, from the dock or the link page. */
  sentHere: readonly string[];
  identity: string | undefined;
  marks?: LocalMarks;
  /** The message id the outbox got back for this question's answer. */
  sentMessageId?: string;
};

/** Whether the stored answer is the one this browser sent. */
function answeredHere(record: QuestionRecord, ctx: OutcomeContext): boolean {
  // A confirmed outbox row names its message: the saved reply is ours exactly when it is that message.
  if (record.mode === 'async' && ctx.marks?.delivery === 'sent' && record.replyMessageId && ctx.sentMessageId)
    return record.replyMessageId === ctx.sentMessageId;
  return resolvedHere(record, ctx.sentHere, ctx.identity);
}

/**
 * The summary's word. The gateway's outcome wins; while an async question is still pending there, an answer in the
 * outbox says Answered (its delivery line tells the rest) and a skip here says Skipped, retired or not: retiring
 * never answers, skips or hides an answer on its way (Q10). Only an untouched retired reminder is "No longer pending".
 */
export function outcomeOf(record: QuestionRecord, ctx: OutcomeContext): Outcome {
  const ended = endedOutcome(record.status, record.status === 'answered' && answeredHere(record, ctx));
  if (ended === 'Answered elsewhere' && answeredInAnotherTab(record, ctx.identity)) return ANSWERED_IN_ANOTHER_TAB;
  if (ended) return ended;
  const marks = ctx.marks ?? NO_MARKS;
  if (record.mode === 'async' && marks.delivery !== undefined) return 'Answered';
  if (record.mode === 'async' && marks.skippedAtMs !== undefined) return 'Skipped';
  return record.retiredAtMs !== undefined ? 'No longer pending' : 'Pending';
}
