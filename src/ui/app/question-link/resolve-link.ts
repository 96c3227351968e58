import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { GatewayClient } from '../../../client/client.ts';
import { Answers, ResolvedBy, TerminalStatus, type QuestionRecord, type Result } from '../../../protocol/index.ts';
import { useGateway } from '../../lib/gateway.tsx';
import { errorCode } from '../../lib/error-message.ts';
import { questionEnded, questionLinkKey } from './get-question.ts';
import { linkDraftActions } from './link-drafts.ts';

/** Q1: where this answer came from. */
const SURFACE = 'link';

export type LinkResolve = { kind: 'answer'; answers: Answers } | { kind: 'skip' };

// Stored records may carry null for what they lack; the cache keeps such fields absent.
const TerminalDetails = z.object({
  status: TerminalStatus,
  answers: Answers.nullish().transform((v) => v ?? undefined),
  resolvedBy: ResolvedBy.nullish().transform((v) => v ?? undefined),
  reason: z.string().nullish().transform((v) => v ?? undefined),
});

export function resolveFromLink(client: GatewayClient, id: string, v: LinkResolve, resolutionId: string): Promise<Result<'question.resolve'>> {
  if (v.kind === 'skip') return client.request('question.resolve', { id, skip: true, resolutionId, surface: SURFACE });
  return client.request('question.resolve', { id, answers: v.answers, resolutionId, surface: SURFACE });
}

/** QUESTION_ALREADY_TERMINAL carries the record's outcome; without it the record is read again. */
function recordTerminal(qc: QueryClient, id: string, details: unknown) {
  const parsed = TerminalDetails.safeParse(details);
  if (parsed.success) questionEnded(qc, { id, ...parsed.data });
  else void qc.invalidateQueries({ queryKey: questionLinkKey(id) });
}

/**
 * Answers or skips the link's question with the draft's one resolution id: the client re-sends it after a
 * reconnect and a retry repeats it, and the gateway answers a repeat with the first result (Q5), never a second answer.
 */
export function useResolveLink(record: QuestionRecord) {
  const client = useGateway();
  const qc = useQueryClient();
  const id = record.id;
  return useMutation({
    mutationKey: ['question-link', id, 'resolve'],
    mutationFn: (v: LinkResolve) => {
      const resolutionId = linkDraftActions().submitStarted(id, v.kind === 'answer' ? v.answers : 'skip');
      return resolveFromLink(client, id, v, resolutionId);
    },
    onSuccess: (result) => {
      questionEnded(qc, {
        id,
        status: result.status,
        answers: result.answers,
        resolvedBy: { identity: client.hello?.auth.identity ?? '', surface: SURFACE, atMs: Date.now() },
      });
      linkDraftActions().submitSucceeded(id);
    },
    onError: (error: unknown) => {
      const code = errorCode(error);
      if (code === 'QUESTION_ALREADY_TERMINAL') {
        linkDraftActions().submitRejected(id, { terminal: true });
        recordTerminal(qc, id, (error as { details?: unknown }).details);
      } else if (code === 'QUESTION_NOT_FOUND') {
        linkDraftActions().submitRejected(id, { terminal: true });
        void qc.invalidateQueries({ queryKey: questionLinkKey(id) });
      } else linkDraftActions().submitRejected(id, { terminal: false });
    },
  });
}
