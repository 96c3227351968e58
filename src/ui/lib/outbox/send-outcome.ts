import type { ChatMessage } from '../../../protocol/index.ts';
import type { OutboxError, OutboxRow } from './machine.ts';

const normalisedText = (text: string) => text.replace(/\r\n/g, '\n').trim();

/** A saved message is this row's answer when it has the row's message id, or replies to its question with its text. */
export function messageConfirmsRow(row: OutboxRow, message: ChatMessage): boolean {
  if (row.messageId !== undefined && message.id === row.messageId) return true;
  return (
    message.role === 'user' &&
    message.sessionKey === row.sessionKey &&
    message.replyTo?.questionId === row.questionId &&
    normalisedText(message.text) === normalisedText(row.text)
  );
}

export type SendError = OutboxError & { retryable: boolean; retryAfterMs?: number; aborted: boolean };

/** What a failed `chat.send` says about the row: the stored error, and whether it may simply go again later. */
export function sendErrorOf(err: unknown): SendError {
  const e = err as { code?: unknown; message?: unknown; retryable?: unknown; retryAfterMs?: unknown; name?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : 'ERROR';
  return {
    code,
    message: typeof e?.message === 'string' && e.message ? e.message : String(err),
    // RATE_LIMITED always means "later" (PROTOCOL: it carries retryAfterMs), flag or not.
    retryable: e?.retryable === true || code === 'RATE_LIMITED',
    retryAfterMs: typeof e?.retryAfterMs === 'number' ? e.retryAfterMs : undefined,
    aborted: e?.name === 'AbortError',
  };
}
