import { useIsMutating, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { GatewayClient } from '../../../../client/client.ts';
import {
  Answers,
  ResolvedBy,
  TerminalStatus,
  type ParamsInput,
  type QuestionRecord,
  type Result,
} from '../../../../protocol/index.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import { errorCode } from '../../../lib/error-message.ts';
import { draftActions } from '../stores/drafts.ts';
import { questionResolved, questionsKey } from './get-questions.ts';

const SURFACE = 'control-ui';

export function resolveQuestion(client: GatewayClient, params: ParamsInput<'question.resolve'>): Promise<Result<'question.resolve'>> {
  return client.request('question.resolve', params);
}

export type ResolveVariables =
  | { record: QuestionRecord; kind: 'answer'; answers: Answers }
  | { record: QuestionRecord; kind: 'skip' };

/** Every way of answering from the dock shares this key prefix (see queue-async-answer.ts). */
export const resolveKey = ['questions', 'resolve'] as const;

// Stored records may carry null for what they lack; the cache keeps such fields absent.
const TerminalDetails = z.object({
  status: TerminalStatus,
  answers: Answers.nullish().transform((v) => v ?? undefined),
  resolvedBy: ResolvedBy.nullish().transform((v) => v ?? undefined),
  reason: z.string().nullish().transform((v) => v ?? undefined),
});

/** QUESTION_ALREADY_TERMINAL carries the record's outcome; read it where it is, else ask for the list again. */
function applyTerminalDetails(qc: QueryClient, id: string, details: unknown) {
  const direct = TerminalDetails.safeParse(details);
  const nested = TerminalDetails.safeParse((details as { question?: unknown } | null)?.question);
  const outcome = direct.success ? direct.data : nested.success ? nested.data : null;
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
    mutationFn: (v: ResolveVariables) => {
      const resolutionId = draftActions().submitStarted(v.record.id, v.kind === 'answer' ? v.answers : undefined);
      if (v.kind === 'skip') return resolveQuestion(client, { id: v.record.id, skip: true, resolutionId, surface: SURFACE });
      return resolveQuestion(client, { id: v.record.id, answers: v.answers, resolutionId, surface: SURFACE });
    },
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
      const code = errorCode(error);
      if (code === 'QUESTION_ALREADY_TERMINAL' || code === 'QUESTION_NOT_FOUND') {
        draftActions().submitRejected(record.id, { terminal: true });
        applyTerminalDetails(qc, record.id, (error as { details?: unknown }).details);
      } else if (code === 'QUESTION_INVALID_ANSWER') draftActions().submitRejected(record.id, { terminal: false });
    },
  });
}
