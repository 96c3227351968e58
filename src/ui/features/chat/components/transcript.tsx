import { useMemo, useRef } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { errorCode, errorMessage } from '../../../lib/error-message.ts';
import { useHistory } from '../api/get-history.ts';
import { flattenHistory } from '../lib/history-cache.ts';
import { interleave, type TranscriptExtraItem } from '../lib/interleave.ts';
import { useStickToBottom } from '../lib/use-stick-to-bottom.ts';
import { MessageItem } from './message-item.tsx';

export type TranscriptProps = {
  sessionKey: string;
  /** Items from other features (question summaries), placed among the messages by time. */
  extraItems?: readonly TranscriptExtraItem[];
};

const NO_EXTRAS: readonly TranscriptExtraItem[] = [];

/** The conversation (U12 log "Conversation"): saved history, "Load earlier", live messages and extra items. */
export function Transcript({ sessionKey, extraItems = NO_EXTRAS }: TranscriptProps) {
  const history = useHistory(sessionKey);
  const entries = useMemo(() => interleave(flattenHistory(history.data), extraItems), [history.data, extraItems]);
  const logRef = useRef<HTMLDivElement>(null);
  const { onScroll, keepPositionOnce } = useStickToBottom(logRef, entries);

  const loadEarlier = () => {
    keepPositionOnce();
    void history.fetchNextPage();
  };

  return (
    // Focusable so keyboard users can scroll it; role log implies a polite live region.
    <div ref={logRef} role="log" aria-label="Conversation" tabIndex={0} className="transcript" onScroll={onScroll}>
      {history.hasNextPage && (
        <div className="transcript-earlier">
          <Button size="sm" variant="ghost" onClick={loadEarlier} disabled={history.isFetchingNextPage}>
            {history.isFetchingNextPage ? 'Loading…' : 'Load earlier'}
          </Button>
        </div>
      )}
      {history.isPending && <p className="muted transcript-note">Loading the conversation…</p>}
      {history.isError && (
        <div className="transcript-note">
          <p className="inline-error">
            {errorCode(history.error) === 'SESSION_NOT_FOUND'
              ? 'This session does not exist, or this sign-in cannot see it.'
              : `Could not load the conversation: ${errorMessage(history.error)}`}
          </p>
          <Button size="sm" onClick={() => void history.refetch()}>
            Try again
          </Button>
        </div>
      )}
      {history.isSuccess && entries.length === 0 && <p className="muted transcript-note">No messages yet. Say hello below.</p>}
      {entries.map((entry) =>
        entry.kind === 'message' ? (
          <MessageItem key={entry.key} message={entry.message} />
        ) : (
          <div key={entry.key} className="transcript-extra">
            {entry.item.node}
          </div>
        ),
      )}
    </div>
  );
}
