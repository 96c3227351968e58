import { z } from 'zod';
import type { GatewayClient } from '../../../../client/client.ts';
import { Answers, ResolvedBy, TerminalStatus, type EventPayload, type QuestionRecord, type Result } from '../../../../protocol/index.ts';
import { errorCode } from '../../../lib/error-message.ts';
import { draftActions } from '../stores/drafts.ts';

export type Resolution = { kind: 'answer'; answers: Answers } | { kind: 'skip' };

/**
 * Answers or skips question `id` with its draft's one resolution id: the client re-sends it after a reconnect, a retry
 * repeats it, and the dock and the link page share it, so the gateway answers a repeat with the first result (Q5).
 */
export function resolveWithDraft(
  client: GatewayClient,
  id: string,
  resolution: Resolution,
  surface: string,
): Promise<Result<'question.resolve'>> {
  const resolutionId = draftActions().submitStarted(id, resolution.kind === 'answer' ? resolution.answers : 'skip');
  if (resolution.kind === 'skip') return client.request('question.resolve', { id, skip: true, resolutionId, surface });
  return client.request('question.resolve', { id, answers: resolution.answers, resolutionId, surface });
}

/** A resolve refused because the record already ended or is gone: nothing is left to send from its draft. */
export function endedElsewhere(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'QUESTION_ALREADY_TERMINAL' || code === 'QUESTION_NOT_FOUND';
}

// Stored records may carry null for what they lack; the cache keeps such fields absent.
const TerminalDetails = z.object({
  status: TerminalStatus,
  answers: Answers.nullish().transform((v) => v ?? undefined),
  resolvedBy: ResolvedBy.nullish().transform((v) => v ?? undefined),
  reason: z.string().nullish().transform((v) => v ?? undefined),
});
export type TerminalOutcome = z.infer<typeof TerminalDetails>;

/** The outcome QUESTION_ALREADY_TERMINAL carries in its details (or under their `question`), if it carries one. */
export function terminalOutcome(error: unknown): TerminalOutcome | null {
  const details = (error as { details?: unknown } | null)?.details;
  const direct = TerminalDetails.safeParse(details);
  if (direct.success) return direct.data;
  const nested = TerminalDetails.safeParse((details as { question?: unknown } | null)?.question);
  return nested.success ? nested.data : null;
}

/** A record with its `question.resolved` event applied; what the event leaves out stays as it was. */
export function withResolution(record: QuestionRecord, e: EventPayload<'question.resolved'>): QuestionRecord {
  return {
    ...record,
    status: e.status,
    answers: e.answers ?? record.answers,
    resolvedBy: e.resolvedBy ?? record.resolvedBy,
    reason: e.reason ?? record.reason,
    replyMessageId: e.replyMessageId ?? record.replyMessageId,
  };
}
