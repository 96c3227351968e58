import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import { draftActions } from '../stores/drafts.ts';
import { endedElsewhere, resolveWithDraft, terminalOutcome, type Resolution } from './resolution.ts';
import { questionEnded, questionLinkKey } from './get-question.ts';

/** Q1: where this answer came from. */
const SURFACE = 'link';

/**
 * Answers or skips the link's question with the draft it shares with the dock, and so with its one resolution id:
 * a re-send, a retry or a submit from the dock is the same resolve, never a second answer (Q5).
 */
export function useResolveLink(record: QuestionRecord) {
  const client = useGateway();
  const qc = useQueryClient();
  const id = record.id;
  return useMutation({
    mutationKey: ['question-link', id, 'resolve'],
    mutationFn: (v: Resolution) => resolveWithDraft(client, id, v, SURFACE),
    onSuccess: (result) => {
      questionEnded(qc, {
        id,
        status: result.status,
        answers: result.answers,
        resolvedBy: { identity: client.hello?.auth.identity ?? '', surface: SURFACE, atMs: Date.now() },
      });
      draftActions().submitSucceeded(id);
    },
    onError: (error: unknown) => {
      if (!endedElsewhere(error)) return;
      draftActions().draftDiscarded(id);
      // QUESTION_ALREADY_TERMINAL carries the record's outcome; without it (or gone) the record is read again.
      const outcome = terminalOutcome(error);
      if (outcome) questionEnded(qc, { id, ...outcome });
      else void qc.invalidateQueries({ queryKey: questionLinkKey(id) });
    },
  });
}
