import { useId } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { RelativeTime } from '../../components/relative-time.tsx';
import { canDiscard, canRetry, DELIVERY_WORDS, deliveryNote, type OutboxRow } from '../../lib/outbox/machine.ts';
import type { Outbox } from '../../lib/outbox/outbox.ts';
import './pending-message.css';

/**
 * A chat message of the outbox in the transcript (U11): the person's bubble with its delivery word (Queued, Sending,
 * Failed, Sent, as an async answer's card shows them) and why beside it; Retry on a Failed or dropped send (the same
 * idempotency key, so never a second message) and Discard while it is not out.
 */
export function PendingMessage({ row, outbox }: { row: OutboxRow; outbox: Pick<Outbox, 'retry' | 'discard'> }) {
  const authorId = useId();
  const noteId = useId();
  const note = deliveryNote(row);
  const retry = canRetry(row);
  const discard = canDiscard(row);
  return (
    <article className="message message-user message-outbox" data-state={row.state} aria-labelledby={authorId}>
      <header className="message-meta">
        <span id={authorId} className="message-author">
          You
        </span>
        <RelativeTime ms={row.createdAtMs} />
        <span className="message-delivery status-pill" role="status" aria-describedby={note ? noteId : undefined}>
          {DELIVERY_WORDS[row.state]}
        </span>
      </header>
      <p className="message-text">{row.text}</p>
      {note && (
        <p id={noteId} className="message-delivery-note">
          {note}
        </p>
      )}
      {(retry || discard) && (
        <div className="message-delivery-actions">
          {retry && (
            <Button size="sm" onClick={() => void outbox.retry(row.id)}>
              Retry
            </Button>
          )}
          {discard && (
            <Button size="sm" variant="ghost" onClick={() => void outbox.discard(row.id)}>
              Discard
            </Button>
          )}
        </div>
      )}
    </article>
  );
}
