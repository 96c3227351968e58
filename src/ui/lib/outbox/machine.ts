import { array, count, number, object, oneOf, optional, record, string, type Checked } from '../shape.ts';

/**
 * One outbox row's delivery (PRODUCT U9): a pure state machine, no I/O.
 *
 *   queued ──sendStarted──▶ sending ──sendSucceeded──▶ sent
 *     ▲                      │  │  └─connectionLost──▶ unconfirmed ──sendStarted (same key)──▶ sending
 *     │                      │  └─sendFailed(final)──▶ failed
 *     └─sendFailed(retryable)┘
 *   failed | unconfirmed ──retryRequested──▶ queued;  queued | failed | unconfirmed ──discarded──▶ (removed)
 *   any but sent ──sendSucceeded | confirmedByHistory──▶ sent
 */
export const OUTBOX_STATES = ['queued', 'sending', 'failed', 'unconfirmed', 'sent'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** What a row carries: an async question's answer (`replyTo`), or a plain chat message typed in the composer (U11). */
export const OUTBOX_KINDS = ['answer', 'message'] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

const OutboxError = object({ code: string(), message: string() });
export type OutboxError = Checked<typeof OutboxError>;

/** A row as stored and shared between tabs, checked whenever it is read back. */
export const OutboxRow = object({
  id: string(1),
  /** Stable for the row's life: every attempt, automatic or "Retry answer", sends this same key (C2). */
  idempotencyKey: string(8, 128),
  sessionKey: string(1),
  /** Absent on rows stored before chat messages used the outbox: those are answers. */
  kind: optional(oneOf(OUTBOX_KINDS)),
  /** The question an answer replies to; a chat message has none. */
  questionId: optional(string(1)),
  text: string(),
  /** The structured answers for `replyTo.answers`; absent once the text was edited by hand. */
  answers: optional(record(array(string()))),
  state: oneOf(OUTBOX_STATES),
  error: optional(OutboxError),
  messageId: optional(string()),
  seq: optional(number),
  createdAtMs: number,
  updatedAtMs: number,
  attempts: count,
  /** The tab holding the send lease, and until when (only one tab sends a row). */
  sendingBy: optional(string()),
  leaseExpiresAtMs: optional(number),
});
export type OutboxRow = Checked<typeof OutboxRow>;

/** A plain chat message rather than an answer. */
export const isChatMessageRow = (row: OutboxRow) => row.kind === 'message';

export type OutboxEvent =
  | { type: 'sendStarted' }
  | { type: 'sendSucceeded'; messageId: string; seq?: number }
  | { type: 'sendFailed'; error: OutboxError; retryable: boolean }
  | { type: 'connectionLost' }
  | { type: 'retryRequested' }
  | { type: 'edited'; text: string }
  | { type: 'discarded' }
  | { type: 'confirmedByHistory'; messageId: string };

export type OutboxEventType = OutboxEvent['type'];

const EDITABLE: ReadonlySet<OutboxState> = new Set(['queued', 'failed']);
const DISCARDABLE: ReadonlySet<OutboxState> = new Set(['queued', 'failed', 'unconfirmed']);

export const canEdit = (row: OutboxRow) => EDITABLE.has(row.state);
export const canDiscard = (row: OutboxRow) => DISCARDABLE.has(row.state);
/** Refusals no resend can change: the question ended or is gone, so the same answer would be refused again (U9). */
const FINAL_FAILURES: ReadonlySet<string> = new Set(['QUESTION_ALREADY_TERMINAL', 'QUESTION_NOT_FOUND', 'SESSION_NOT_FOUND']);
export const isFinalFailure = (row: OutboxRow) => row.state === 'failed' && FINAL_FAILURES.has(row.error?.code ?? '');
export const canRetry = (row: OutboxRow) => row.state === 'unconfirmed' || (row.state === 'failed' && !isFinalFailure(row));

/**
 * The words of U9. A send whose connection dropped before the gateway confirmed it (`unconfirmed`) is still on its
 * way for the person: it reads Sending, goes out again by itself on the next connection, and can be retried safely.
 */
export const DELIVERY_WORDS = {
  queued: 'Queued',
  sending: 'Sending',
  failed: 'Failed',
  unconfirmed: 'Sending',
  sent: 'Sent',
} as const satisfies Record<OutboxState, string>;

/** Why the state is what it is, beside the word: what the gateway said for Failed, the safe retry for a dropped send. */
export function deliveryNote(row: OutboxRow): string | undefined {
  if (row.state === 'failed') return row.error?.message;
  if (row.state === 'unconfirmed') return 'The connection dropped before the gateway confirmed it; retrying never sends it twice.';
  return undefined;
}

function withoutError(row: OutboxRow): OutboxRow {
  const { error: _error, ...rest } = row;
  return rest;
}

function toSent(row: OutboxRow, messageId: string, seq: number | undefined, nowMs: number): OutboxRow {
  const next: OutboxRow = { ...withoutError(row), state: 'sent', messageId, updatedAtMs: nowMs };
  if (seq !== undefined) next.seq = seq;
  return next;
}

/**
 * The next row after `event`, `null` when the row is discarded, or the very same `row` object when the event
 * is not allowed in its state (callers compare by reference to see whether anything changed).
 */
export function transition(row: OutboxRow, event: OutboxEvent, nowMs: number): OutboxRow | null {
  const s = row.state;
  switch (event.type) {
    case 'sendStarted':
      // An unconfirmed row may be sent again without asking: the same key can only ever make one message.
      if (s !== 'queued' && s !== 'unconfirmed') return row;
      return { ...withoutError(row), state: 'sending', attempts: row.attempts + 1, updatedAtMs: nowMs };
    case 'sendSucceeded':
    case 'confirmedByHistory':
      // A result or a saved message with this row's key is the truth, whatever this tab believed meanwhile.
      if (s === 'sent') return row;
      return toSent(row, event.messageId, event.type === 'sendSucceeded' ? event.seq : undefined, nowMs);
    case 'sendFailed':
      // The gateway answered, so nothing was saved: a retryable refusal waits in the queue, a final one needs the person.
      if (s !== 'sending' && s !== 'unconfirmed') return row;
      return { ...row, state: event.retryable ? 'queued' : 'failed', error: event.error, updatedAtMs: nowMs };
    case 'connectionLost':
      if (s !== 'sending') return row;
      return { ...row, state: 'unconfirmed', updatedAtMs: nowMs };
    case 'retryRequested':
      if (s !== 'failed' && s !== 'unconfirmed') return row;
      return { ...withoutError(row), state: 'queued', updatedAtMs: nowMs };
    case 'edited': {
      if (!EDITABLE.has(s) || event.text.trim() === '' || event.text === row.text) return row;
      // Hand-edited text no longer matches the structured answers; the gateway reads the text back instead (Q9).
      const { answers: _answers, ...rest } = row;
      return { ...rest, text: event.text, updatedAtMs: nowMs };
    }
    case 'discarded':
      return DISCARDABLE.has(s) ? null : row;
  }
}

/** Rows the outbox may still send or resend on its own. */
export const isPending = (row: OutboxRow) => row.state !== 'sent' && row.state !== 'failed';
