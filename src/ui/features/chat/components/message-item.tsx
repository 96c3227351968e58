import { memo, useId, type ComponentType } from 'react';
import type { ChatMessage } from '../../../../protocol/index.ts';
import type { TranscriptMessage } from '../lib/history-cache.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { readPolicyNotice } from '../../../../lib/policy-notice.ts';
import { PolicyNoticeRow } from './policy-notice-row.tsx';

const AUTHOR: Record<TranscriptMessage['role'], string> = { user: 'You', assistant: 'Agent', system: 'System' };

type Props = {
  message: TranscriptMessage;
  /** Draws the body of a reply to a question (its structured answers) in place of the plain text. */
  ReplyBody?: ComponentType<{ message: ChatMessage }>;
};

/** One chat message; an assistant reply still streaming is marked busy and shows a caret. Memoised: a new message re-renders its own row only. */
export const MessageItem = memo(function MessageItem({ message, ReplyBody }: Props) {
  const authorId = useId();
  const notice = message.role === 'system' ? readPolicyNotice(message.text) : null;
  if (notice) return <PolicyNoticeRow message={message} notice={notice} />;
  const reply = ReplyBody !== undefined && message.replyTo !== undefined;
  return (
    <article
      className={`message message-${message.role}${reply ? ' message-reply' : ''}`}
      aria-labelledby={authorId}
      aria-busy={message.streaming || undefined}
    >
      <header className="message-meta">
        <span id={authorId} className="message-author">{AUTHOR[message.role]}</span>
        <RelativeTime ms={message.createdAtMs} />
      </header>
      {reply ? (
        <ReplyBody message={message} />
      ) : (
        <p className="message-text">
          {message.text}
          {message.streaming && <span className="message-caret" aria-hidden="true" />}
        </p>
      )}
    </article>
  );
});
