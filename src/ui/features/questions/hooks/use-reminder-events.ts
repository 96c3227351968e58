import { useQueryClient } from '@tanstack/react-query';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useOutboxDiscarded } from '../../../lib/outbox/use-outbox.ts';
import { withDrafts } from '../stores/later-drafts.ts';
import { questionsKey } from '../api/get-questions.ts';
import { dockUiActions } from '../stores/dock-ui.ts';

/**
 * A discarded answer (here or in another tab) reopens its draft in this session's dock (U9). A reminder that retires
 * leaves the dock even while focus is inside it (U8, Q10): its summary offers Answer, with the draft kept.
 */
export function useReminderEvents(sessionKey: string) {
  const qc = useQueryClient();

  useOutboxDiscarded((row) => {
    const questionId = row.questionId;
    // A chat message's row has no draft in the dock.
    if (row.sessionKey !== sessionKey || questionId === undefined) return;
    const record = qc.getQueryData<QuestionRecord[]>(questionsKey)?.find((r) => r.id === questionId);
    // The draft normally survives the submit; rebuild it only where this browser lost it.
    if (record) withDrafts((drafts) => drafts.restoreDiscardedDraft(record, row));
    // Only the tab where Discard was pressed moves focus; other tabs just show the draft again.
    const here = typeof document !== 'undefined' && document.hasFocus() && !document.hidden;
    dockUiActions().draftReturned(sessionKey, questionId, { retiredAtMs: record?.retiredAtMs, focus: here });
  });
}
