import type { ChatMessage } from '../../../protocol/index.ts';
import type { OutboxError, OutboxKind, OutboxRow } from './machine.ts';

const normalisedText = (text: string) => text.replace(/\r\n/g, '\n').trim();

/**
 * A saved message is this row's when it has the row's message id, or (an answer) replies to the row's question with
 * its text.
 */
export function messageConfirmsRow(row: OutboxRow, message: ChatMessage): boolean {
  if (row.messageId !== undefined && message.id === row.messageId) return true;
  // A chat message carries nothing but its text, and the same words may well be sent twice: only its id confirms it.
  if (row.questionId === undefined) return false;
  return (
    message.role === 'user' &&
    message.sessionKey === row.sessionKey &&
    message.replyTo?.questionId === row.questionId &&
    normalisedText(message.text) === normalisedText(row.text)
  );
}

export type SendError = OutboxError & { retryable: boolean; retryAfterMs?: number; aborted: boolean };

/** How a question that ended before this answer reached it ended, in a person's words (QUESTION_ALREADY_TERMINAL's status). */
const ENDED: Record<string, string> = {
  answered: 'it was already answered elsewhere',
  skipped: 'it was already skipped',
  expired: 'it expired',
  cancelled: 'the agent cancelled it',
};

/** The line a person reads under Failed: why the answer did not arrive, without ids or protocol words where it can. */
function readableReason(code: string, message: string, details: unknown, kind: OutboxKind): string {
  if (kind === 'message') return code === 'SESSION_NOT_FOUND' ? 'Not delivered: the session is no longer there.' : message;
  if (code === 'QUESTION_ALREADY_TERMINAL') {
    const status = (details as { status?: unknown } | null)?.status;
    const ended = typeof status === 'string' ? ENDED[status] : undefined;
    return `Not delivered: ${ended ?? 'the question had already ended'}.`;
  }
  if (code === 'QUESTION_NOT_FOUND' || code === 'SESSION_NOT_FOUND') return 'Not delivered: the question is no longer there.';
  return message;
}

/** What a failed `chat.send` says about the row: the stored error, and whether it may simply go again later. */
export function sendErrorOf(err: unknown, kind: OutboxKind = 'answer'): SendError {
  const e = err as { code?: unknown; message?: unknown; retryable?: unknown; retryAfterMs?: unknown; name?: unknown; details?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : 'ERROR';
  const message = typeof e?.message === 'string' && e.message ? e.message : String(err);
  return {
    code,
    message: readableReason(code, message, e?.details, kind),
    // RATE_LIMITED always means "later" (PROTOCOL: it carries retryAfterMs), flag or not.
    retryable: e?.retryable === true || code === 'RATE_LIMITED',
    retryAfterMs: typeof e?.retryAfterMs === 'number' ? e.retryAfterMs : undefined,
    aborted: e?.name === 'AbortError',
  };
}
