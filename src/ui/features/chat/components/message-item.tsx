import { memo, useId } from 'react';
import type { TranscriptMessage } from '../lib/history-cache.ts';

const AUTHOR: Record<TranscriptMessage['role'], string> = { user: 'You', assistant: 'Agent', system: 'System' };
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** One chat message; an assistant reply still streaming is marked busy and shows a caret. Memoised: a new message re-renders its own row only. */
export const MessageItem = memo(function MessageItem({ message }: { message: TranscriptMessage }) {
  const when = new Date(message.createdAtMs);
  const authorId = useId();
  return (
    <article
      className={`message message-${message.role}`}
      aria-labelledby={authorId}
      aria-busy={message.streaming || undefined}
    >
      <header className="message-meta">
        <span id={authorId} className="message-author">{AUTHOR[message.role]}</span>
        <time dateTime={when.toISOString()}>{timeFormat.format(when)}</time>
      </header>
      <p className="message-text">
        {message.text}
        {message.streaming && <span className="message-caret" aria-hidden="true" />}
      </p>
    </article>
  );
});
