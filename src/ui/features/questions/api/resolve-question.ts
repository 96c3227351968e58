import { useIsMutating, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Answers, QuestionRecord } from '../../../../protocol/index.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import { draftActions } from '../stores/drafts.ts';
import { endedElsewhere, resolveWithDraft, terminalOutcome } from './resolution.ts';
import { questionResolved, questionsKey } from './get-questions.ts';

const SURFACE = 'control-ui';

export type ResolveVariables =
  | { record: QuestionRecord; kind: 'answer'; answers: Answers }
  | { record: QuestionRecord; kind: 'skip' };

/** Every way of answering from the dock shares this key prefix (see queue-async-answer.ts). */
export const resolveKey = ['questions', 'resolve'] as const;

/** QUESTION_ALREADY_TERMINAL carries the record's outcome; read it where it is, else ask for the list again. */
function applyTerminalDetails(qc: QueryClient, id: string, error: unknown) {
  const outcome = terminalOutcome(error);
  if (outcome) questionResolved(qc, { id, ...outcome });
  else void qc.invalidateQueries({ queryKey: questionsKey });
}

/** Whether a resolve of this record is in flight, also after the dock switched requests and back. */
export function useIsResolving(recordId: string): boolean {
  return (
    useIsMutating({
      mutationKey: resolveKey,
      predicate: (m) => (m.state.variables as ResolveVariables | undefined)?.record.id === recordId,
    }) > 0
  );
}

/** Answers or skips a request by question.resolve; the draft keeps its resolution id so a retry is the same resolve. */
export function useResolveRequest() {
  const client = useGateway();
  const qc = useQueryClient();
  return useMutation({
    mutationKey: resolveKey,
    mutationFn: (v: ResolveVariables) => resolveWithDraft(client, v.record.id, v, SURFACE),
    onSuccess: (result, { record }) => {
      const cached = qc.getQueryData<QuestionRecord[]>(questionsKey)?.find((r) => r.id === record.id);
      // The gateway's own event may have landed first and is the better record.
      if (cached?.status === 'pending')
        questionResolved(qc, {
          id: record.id,
          status: result.status,
          answers: result.answers,
          resolvedBy: { identity: client.hello?.auth.identity ?? '', surface: SURFACE, atMs: Date.now() },
        });
      draftActions().submitSucceeded(record.id);
    },
    onError: (error: unknown, { record }) => {
      if (!endedElsewhere(error)) return;
      draftActions().draftDiscarded(record.id);
      applyTerminalDetails(qc, record.id, error);
    },
  });
}
