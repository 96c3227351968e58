import { memo, useMemo, useRef, type ComponentType, type ReactNode } from 'react';
import type { ChatMessage } from '../../../../protocol/index.ts';
import { Button } from '../../../components/ui/button.tsx';
import { errorCode, errorMessage } from '../../../lib/error-message.ts';
import { useHistory } from '../api/get-history.ts';
import { flattenHistory } from '../lib/history-cache.ts';
import { interleave, type TranscriptEntry, type TranscriptExtraItem } from '../lib/interleave.ts';
import { useTranscriptVirtualizer } from '../lib/use-transcript-virtualizer.ts';
import { MessageItem } from './message-item.tsx';

export type TranscriptProps = {
  sessionKey: string;
  /** Items from other features (question summaries), placed among the messages by time. */
  extraItems?: readonly TranscriptExtraItem[];
  /** Shows the body of a message that answers a question (`replyTo`), from the feature that knows the question. */
  ReplyBody?: ComponentType<{ message: ChatMessage }>;
  /** Shown under the newest message when the person sent it and nothing came after (U18: no agent to read it yet). */
  lastSentNote?: ReactNode;
  /** The session is bound to the demo agent of `askdock start`: its empty state says what to type to it. */
  demoAgent?: boolean;
};

const NO_EXTRAS: readonly TranscriptExtraItem[] = [];

/** Why the history did not load; a refusal names what the sign-in lacks, since asking again will not change it (A4, A5). */
function historyFailure(error: unknown): string {
  const code = errorCode(error);
  if (code === 'SESSION_NOT_FOUND') return 'This session does not exist, or this sign-in cannot see it.';
  if (code === 'FORBIDDEN')
    return "This sign-in may answer this session's questions but not read its conversation: that needs the operator.read scope.";
  return `Could not load the conversation: ${errorMessage(error)}`;
}

/** Memoised: the log re-renders on every scroll, resize and measure of the virtualizer, and its rows' props stay the same. */
const EntryView = memo(function EntryView({ entry, ReplyBody, note }: { entry: TranscriptEntry; ReplyBody: TranscriptProps['ReplyBody']; note?: ReactNode }) {
  if (entry.kind === 'extra') return <div className="transcript-extra">{entry.item.node}</div>;
  return (
    <>
      <MessageItem message={entry.message} ReplyBody={entry.message.replyTo ? ReplyBody : undefined} />
      {note}
    </>
  );
});

/**
 * The conversation (U12 log "Conversation"): saved history, "Load earlier", live messages and extra items.
 * Memoised, so the page re-rendering for the dock or the sessions list leaves the log alone.
 */
export const Transcript = memo(function Transcript({ sessionKey, extraItems = NO_EXTRAS, ReplyBody, lastSentNote, demoAgent = false }: TranscriptProps) {
  const history = useHistory(sessionKey);
  const entries = useMemo(() => interleave(flattenHistory(history.data), extraItems), [history.data, extraItems]);
  const logRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const header = [history.hasNextPage, history.status, entries.length === 0].join();
  const { virtualizer, onScroll, onKeyDown, onReaderInput } = useTranscriptVirtualizer(logRef, listRef, entries, header);
  const rows = virtualizer.getVirtualItems();
  const newest = entries.at(-1);
  const lastSent = newest?.kind === 'message' && newest.message.role === 'user' ? entries.length - 1 : -1;
  const margin = virtualizer.options.scrollMargin;
  const before = rows.length ? rows[0].start - margin : 0;
  const after = rows.length ? virtualizer.getTotalSize() - (rows[rows.length - 1].end - margin) : 0;

  return (
    // Focusable so keyboard users can scroll it; role log implies a polite live region.
    <div
      ref={logRef}
      role="log"
      aria-label="Conversation"
      // Rows that scroll into the window are old messages, not news for the live region.
      aria-busy={virtualizer.isScrolling || undefined}
      tabIndex={0}
      className="transcript"
      onScroll={onScroll}
      onKeyDown={onKeyDown}
      onWheel={onReaderInput}
      onTouchMove={onReaderInput}
      onPointerDown={onReaderInput}
    >
      {history.hasNextPage && (
        <div className="transcript-earlier">
          <Button size="sm" variant="ghost" onClick={() => void history.fetchNextPage()} disabled={history.isFetchingNextPage}>
            {history.isFetchingNextPage ? 'Loading…' : 'Load earlier'}
          </Button>
        </div>
      )}
      {history.isPending && <p className="muted transcript-note">Loading the conversation…</p>}
      {history.isError && (
        <div className="transcript-note">
          <p className="inline-error">{historyFailure(history.error)}</p>
          {errorCode(history.error) !== 'FORBIDDEN' && (
            <Button size="sm" onClick={() => void history.refetch()}>
              Try again
            </Button>
          )}
        </div>
      )}
      {history.isSuccess && entries.length === 0 && (
        <div className="transcript-empty">
          <p className="transcript-empty-title">No messages yet</p>
          {demoAgent ? (
            <p className="muted">
              Say hello below. With the demo agent, <kbd>deploy</kbd> asks a two-question prompt and <kbd>async</kbd> a question that
              does not hold it up.
            </p>
          ) : (
            <p className="muted">Write to the agent below: its questions dock right above the composer.</p>
          )}
        </div>
      )}
      <div ref={listRef} className="transcript-rows" style={{ paddingTop: before, paddingBottom: after }}>
        {rows.map((row) => (
          <div key={row.key} data-index={row.index} ref={virtualizer.measureElement} className="transcript-row">
            <EntryView entry={entries[row.index]} ReplyBody={ReplyBody} note={row.index === lastSent ? lastSentNote : undefined} />
          </div>
        ))}
      </div>
    </div>
  );
});
