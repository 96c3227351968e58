import { useCallback, useMemo, type ReactNode } from 'react';
import type { QuestionRecord } from '../../../protocol/index.ts';
import { useQuestions } from './api/get-questions.ts';
import { QuestionSummary } from './components/question-summary.tsx';
import type { SummarySlots } from './components/summary-slots.ts';
import { useMarksOf } from './hooks/use-local-marks.ts';
import { inTranscript } from './lib/placement.ts';

// What the transcripts (a session's conversation, the Inbox's history) show of questions: their code loads with those
// chunks, never with the first screen, which shows no summary before its conversation is in.
export { ReplyAnswers } from './components/reply-answers.tsx';

export type QuestionTranscriptItem = { key: string; atMs: number; node: ReactNode };

/**
 * Compact summaries of this session's ended, retired, answered-into-the-outbox or skipped questions, for the
 * transcript to interleave by time (U7-U9). A summary stays with the turn that asked, so it sorts by when it was asked.
 */
export function useQuestionTranscriptItems(sessionKey: string, slots?: SummarySlots): QuestionTranscriptItem[] {
  const marksOf = useMarksOf(sessionKey);
  const records = useQuestions(
    useCallback((all: QuestionRecord[]) => all.filter((r) => inTranscript(r, sessionKey, marksOf(r.id))), [sessionKey, marksOf]),
  );
  return useMemo(
    () =>
      (records ?? []).map((record) => ({
        key: `question:${record.id}`,
        atMs: record.createdAtMs,
        node: <QuestionSummary record={record} sessionKey={sessionKey} slots={slots} />,
      })),
    [records, sessionKey, slots],
  );
}
