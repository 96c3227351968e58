import { useQueryClient } from '@tanstack/react-query';
import type { RefObject } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { parseAsyncAnswerText } from '../../../../answers/async-reply.ts';
import { useGatewayEvent } from '../../../lib/gateway.tsx';
import type { OutboxRow } from '../../../lib/outbox/machine.ts';
import { useOutboxDiscarded } from '../../../lib/outbox/use-outbox.ts';
import { draftFromAnswers } from '../../../../answers/collect.ts';
import { draftActions } from '../stores/drafts.ts';
import { questionsKey } from '../api/get-questions.ts';
import { dockUiActions } from '../stores/dock-ui.ts';

/** The answers a discarded row held: its structured ones, else read back from its (edited) text. */
function rowAnswers(record: QuestionRecord, row: OutboxRow) {
  return row.answers ?? parseAsyncAnswerText(record.questions, row.text) ?? {};
}

/**
 * Keeps async reminders where the person expects them: a discarded answer (here or in another tab) reopens its
 * draft in this session's dock (U9), and a reminder retiring while focus is inside it stays put (U8, Q10).
 */
export function useReminderEvents(sessionKey: string, regionRef: RefObject<HTMLElement | null>, shownId: string | null) {
  const qc = useQueryClient();

  useOutboxDiscarded((row) => {
    if (row.sessionKey !== sessionKey) return;
    const record = qc.getQueryData<QuestionRecord[]>(questionsKey)?.find((r) => r.id === row.questionId);
    // The draft normally survives the submit; rebuild it only where this browser lost it.
    if (record) draftActions().draftRestored(record.id, draftFromAnswers(record, rowAnswers(record, row)));
    // Only the tab where Discard was pressed moves focus; other tabs just show the draft again.
    const here = typeof document !== 'undefined' && document.hasFocus() && !document.hidden;
    dockUiActions().draftReturned(sessionKey, row.questionId, { retiredAtMs: record?.retiredAtMs, focus: here });
  });

  useGatewayEvent('question.retired', ({ id, retiredAtMs }) => {
    const active = typeof document !== 'undefined' ? document.activeElement : null;
    if (id === shownId && active && regionRef.current?.contains(active)) dockUiActions().reminderKept(id, retiredAtMs ?? Date.now());
  });
}
