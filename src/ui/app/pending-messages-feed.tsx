import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { chatKeys, useHistory } from '../features/chat/api/get-history.ts';
import { flattenHistory } from '../features/chat/lib/history-cache.ts';
import type { TranscriptExtraItem } from '../features/chat/lib/interleave.ts';
import { PendingMessage } from '../features/outbox/pending-message.tsx';
import { pendingChatMessages, shownByHistory } from '../lib/outbox/pending-messages.ts';
import type { Outbox } from '../lib/outbox/outbox.ts';

type Props = {
  sessionKey: string;
  /** The tab's outbox, handed in (not read from its context here) so this chunk brings none of the outbox's code. */
  outbox: Outbox;
  onItems: (items: readonly TranscriptExtraItem[]) => void;
};

/**
 * Hands the transcript the session's chat messages still in the outbox (U11), placed by the time they were typed, each
 * with its delivery state until the saved history shows it. A component of its own so its code (and the bubble's)
 * stays out of the first load; it renders nothing itself.
 */
export function PendingMessagesFeed({ sessionKey, outbox, onItems }: Props) {
  const rows = useSyncExternalStore(outbox.subscribe, () => outbox.rows(sessionKey));
  const history = useHistory(sessionKey);
  const queryClient = useQueryClient();
  const loaded = history.isSuccess ? history.data : undefined;
  const shown = useMemo(() => pendingChatMessages(rows, loaded && flattenHistory(loaded)), [rows, loaded]);

  // Sent, yet not in the loaded history: the `chat` event that brings it was missed, so read the history again (once).
  const refreshed = useRef(new Set<string>());
  useEffect(() => {
    const missing = shown.filter((row) => row.state === 'sent' && !refreshed.current.has(row.id));
    if (missing.length === 0) return;
    for (const row of missing) refreshed.current.add(row.id);
    void queryClient.invalidateQueries({ queryKey: chatKeys.history(sessionKey) });
  }, [shown, queryClient, sessionKey]);

  useEffect(() => {
    onItems(
      shown.map((row) => ({ key: `outbox:${row.id}`, atMs: row.createdAtMs, node: <PendingMessage row={row} outbox={outbox} />, shownBy: shownByHistory(rows, row) })),
    );
  }, [shown, rows, outbox, onItems]);
  useEffect(() => () => onItems([]), [onItems]);
  return null;
}
