import type { Answers, QuestionRecord } from '../../../../protocol/index.ts';
import { answerRoute, useQueueAsyncAnswer } from '../api/queue-async-answer.ts';
import { useIsResolving, useResolveRequest } from '../api/resolve-question.ts';
import { dockUiActions } from '../stores/dock-ui.ts';
import { skipActions } from '../stores/skips.ts';

/**
 * Answer and Skip for one request, by mode: a blocking question resolves at the gateway; an async one answers with
 * a chat message through the outbox, and skips here alone, sending nothing (U8, U9).
 */
export function useAnswerRequest(sessionKey: string, record: QuestionRecord) {
  const resolve = useResolveRequest();
  const queue = useQueueAsyncAnswer();
  const busy = useIsResolving(record.id);
  // Focus moves on to the next request, or back to the composer when none is left.
  const done = () => dockUiActions().focusRequested(sessionKey, 'request');

  const answer = (answers: Answers) => {
    if (answerRoute(record) === 'outbox') queue.mutate({ record, kind: 'answer', answers }, { onSuccess: done });
    else resolve.mutate({ record, kind: 'answer', answers }, { onSuccess: done });
  };
  const skip = () => {
    if (record.mode === 'async') {
      skipActions().asyncSkipped(record.id);
      done();
    } else resolve.mutate({ record, kind: 'skip' }, { onSuccess: done });
  };

  // The newer of the two attempts for this record speaks.
  const attempts = [resolve, queue].filter((m) => m.variables?.record.id === record.id).sort((a, b) => b.submittedAt - a.submittedAt);
  const error: unknown = attempts[0]?.error ?? null;
  return { answer, skip, busy, error };
}
