import type { ChatMessage } from '../../../protocol/index.ts';
import { isChatMessageRow, type OutboxRow } from './machine.ts';

/**
 * The chat messages of the outbox the transcript shows beside the saved history (U11): every one not yet Sent, and a
 * Sent one until the loaded history holds it, so the message is in the conversation exactly once. A Sent row older
 * than the newest loaded message is simply not on the pages loaded (history only grows at its end): it stays hidden.
 */
export function pendingChatMessages(rows: readonly OutboxRow[], history: readonly ChatMessage[] | undefined): OutboxRow[] {
  const ids = new Set(history?.map((m) => m.id));
  const newestSeq = history?.reduce((max, m) => Math.max(max, m.seq), -Infinity) ?? -Infinity;
  return rows.filter((row) => {
    if (!isChatMessageRow(row)) return false;
    if (row.state !== 'sent') return true;
    // Before the history loaded, or confirmed from it (no seq of its own): the history is what shows it.
    if (history === undefined || row.messageId === undefined || row.seq === undefined) return false;
    return !ids.has(row.messageId) && row.seq > newestSeq;
  });
}
