import type { ChatMessage } from '../../../protocol/index.ts';
import { isChatMessageRow, type OutboxRow } from './machine.ts';

/** What of a saved message tells whether it is a row of the outbox. */
type Saved = Pick<ChatMessage, 'id' | 'role' | 'text' | 'createdAtMs'>;

/**
 * The chat messages of the outbox the transcript shows beside the saved history (U11): every one not yet Sent, and a
 * Sent one until the loaded history holds it, so the message is in the conversation exactly once. A Sent row older
 * than the newest loaded message is simply not on the pages loaded (history only grows at its end): it stays hidden.
 */
export function pendingChatMessages(rows: readonly OutboxRow[], history: readonly ChatMessage[] | undefined): OutboxRow[] {
  const newestSeq = history?.reduce((max, m) => Math.max(max, m.seq), -Infinity) ?? -Infinity;
  return rows.filter((row) => {
    if (!isChatMessageRow(row)) return false;
    if (history && shownByHistory(rows, row)(history)) return false;
    if (row.state !== 'sent') return true;
    // Before the history loaded, or confirmed from it (no seq of its own): the history is what shows it.
    if (history === undefined || row.messageId === undefined || row.seq === undefined) return false;
    return row.seq > newestSeq;
  });
}

/** Sent at least once and not yet answered: the gateway may have saved it while its answer was lost. */
const IN_FLIGHT: ReadonlySet<OutboxRow['state']> = new Set(['sending', 'unconfirmed']);
/** How far the gateway's clock may be behind this browser's when matching a saved message to the row typed here. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Whether `history` already shows `row`, asked again by the transcript in the render that brings a message, so the
 * words never show twice for a frame. A Sent row: its message is there. A row in flight whose answer was lost (a dropped
 * socket) may be there before the resend under the same idempotency key tells its id: the same words, from a person,
 * saved no earlier than the row was typed, that no other row claims; each saved message stands for one such row.
 */
export function shownByHistory(rows: readonly OutboxRow[], row: OutboxRow): (history: readonly Saved[]) => boolean {
  if (row.messageId !== undefined) {
    const id = row.messageId;
    return (history) => history.some((m) => m.id === id);
  }
  if (!IN_FLIGHT.has(row.state)) return () => false;
  const claimed = new Set(rows.flatMap((r) => (r.messageId ? [r.messageId] : [])));
  // Rows of the same words in flight before this one take the saved messages first.
  const before = rows.filter((r) => r !== row && r.messageId === undefined && IN_FLIGHT.has(r.state) && r.text === row.text && r.createdAtMs <= row.createdAtMs && rows.indexOf(r) < rows.indexOf(row)).length;
  return (history) =>
    history.filter((m) => m.role === 'user' && !claimed.has(m.id) && m.text === row.text && m.createdAtMs >= row.createdAtMs - CLOCK_SKEW_MS).length > before;
}
