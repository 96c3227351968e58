import type { QuestionRecord } from '../../../../protocol/index.ts';
import { parseAsyncAnswerText } from '../../../../answers/async-reply.ts';
import { draftFromAnswers } from '../../../../answers/collect.ts';
import type { OutboxRow } from '../../../lib/outbox/machine.ts';
import { draftActions } from './drafts.ts';

/*
 * What the first screen's handlers (a discarded answer, a question resolved) change in the drafts. With the drafts store
 * and the answer readers it needs, a chunk of its own that later-drafts.ts fetches as the app starts.
 */

/** U9: puts back the draft a discarded row held (its structured answers, else read back from its edited text). */
export function restoreDiscardedDraft(record: QuestionRecord, row: OutboxRow): void {
  const answers = row.answers ?? parseAsyncAnswerText(record.questions, row.text) ?? {};
  draftActions().draftRestored(record.id, draftFromAnswers(record, answers));
}

/** The record ended: nothing left to send from its draft. */
export function discardDraft(recordId: string): void {
  draftActions().draftDiscarded(recordId);
}
