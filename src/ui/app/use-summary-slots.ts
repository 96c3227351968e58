import { useMemo, useRef } from 'react';
import type { ChatMessage } from '../../protocol/index.ts';
import { useHistory } from '../features/chat/api/get-history.ts';
import { flattenHistory } from '../features/chat/lib/history-cache.ts';
import { DeliveryStatus } from '../features/outbox/delivery-status.tsx';
import { ReceiptSlot } from '../features/audit/components/receipt-slot.tsx';
import type { SummarySlots } from '../features/questions/index.tsx';
import { useOutboxHistoryConfirm } from '../lib/outbox/use-outbox.ts';

type Replies = ReadonlyMap<string, ChatMessage>;

const sameReplies = (a: Replies, b: Replies) =>
  a.size === b.size && [...a].every(([id, m]) => b.get(id)?.text === m.text && b.get(id)?.replyTo === m.replyTo);

/**
 * Wires the question summaries of one session to the other features: the outbox's delivery line, the saved
 * replies from the chat history (U9) and the receipt of a decided question (L4). Loaded history also confirms outbox rows saved while this tab was away.
 */
export function useSummarySlots(sessionKey: string): SummarySlots {
  const history = useHistory(sessionKey);
  const messages = useMemo(() => flattenHistory(history.data), [history.data]);
  useOutboxHistoryConfirm(messages);

  const previous = useRef<Replies>(new Map());
  const replies = useMemo(() => {
    const next: Replies = new Map(messages.filter((m) => m.replyTo !== undefined).map((m) => [m.id, m]));
    // Every streamed token makes a new history; the summaries re-render only when a reply itself changed.
    if (!sameReplies(previous.current, next)) previous.current = next;
    return previous.current;
  }, [messages]);

  return useMemo(() => ({ Delivery: DeliveryStatus, replies, Receipt: ReceiptSlot }), [replies]);
}
