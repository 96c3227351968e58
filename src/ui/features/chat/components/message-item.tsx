import { memo, useId } from 'react';
import type { TranscriptMessage } from '../lib/history-cache.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';

const AUTHOR: Record<TranscriptMessage['role'], string> = { user: 'You', assistant: 'Agent', system: 'System' };

/** One chat message; an assistant reply still streaming is marked busy and shows a caret. Memoised: a new message re-renders its own row only. */
export const MessageItem = memo(function MessageItem({ message }: { message: TranscriptMessage }) {
  const authorId = useId();
  return (
    <article
      className={`message message-${message.role}`}
      aria-labelledby={authorId}
      aria-busy={message.streaming || undefined}
    >
      <header className="message-meta">
        <span id={authorId} className="message-author">{AUTHOR[message.role]}</span>
        <RelativeTime ms={message.createdAtMs} />
      </header>
      <p className="message-text">
        {message.text}
        {message.streaming && <span className="message-caret" aria-hidden="true" />}
      </p>
    </article>
  );
});
