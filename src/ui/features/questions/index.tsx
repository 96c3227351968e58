import { useCallback, useMemo, type ReactNode } from 'react';
import type { QuestionRecord } from '../../../protocol/index.ts';
import { useQuestions, useQuestionsSync } from './api/get-questions.ts';
import { QuestionSummary } from './components/question-summary.tsx';
import { dockUiActions } from './stores/dock-ui.ts';
import './questions.css';

export { QuestionDock } from './components/question-dock.tsx';

export type QuestionTranscriptItem = { key: string; atMs: number; node: ReactNode };

/** A summary stays with the turn that asked, so it sorts by when the question was asked. */
const inTranscript = (sessionKey: string) => (r: QuestionRecord) =>
  r.sessionKey === sessionKey && (r.status !== 'pending' || r.retiredAtMs !== undefined);

/** Compact summaries of this session's ended (or retired) questions, for the transcript to interleave by time (U7). */
export function useQuestionTranscriptItems(sessionKey: string): QuestionTranscriptItem[] {
  useQuestionsSync();
  const records = useQuestions(useCallback((all: QuestionRecord[]) => all.filter(inTranscript(sessionKey)), [sessionKey]));
  return useMemo(
    () =>
      (records ?? []).map((record) => ({
        key: `question:${record.id}`,
        atMs: record.createdAtMs,
        node: <QuestionSummary record={record} sessionKey={sessionKey} />,
      })),
    [records, sessionKey],
  );
}

/** Reopens the dock and moves focus into it: what `/question` in the composer does (U1). */
export function expandDock(sessionKey: string): void {
  dockUiActions().dockExpanded(sessionKey, { focus: true });
}
