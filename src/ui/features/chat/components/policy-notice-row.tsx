import type { PolicyNotice } from '../../../../lib/policy-notice.ts';
import type { TranscriptMessage } from '../lib/history-cache.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';

const WORD = { allowed: 'Allowed', denied: 'Denied' } as const;
const MARK = { allowed: '✓', denied: '✕' } as const;

/**
 * G6: an approval the policy, a grant or a person decided, as one quiet line in the conversation: a mark, the word,
 * the request and the rule or grant that decided it as code. Read as the message's own text (its label).
 */
export function PolicyNoticeRow({ message, notice }: { message: TranscriptMessage; notice: PolicyNotice }) {
  return (
    <article className="message message-system message-notice" data-outcome={notice.outcome} aria-label={message.text}>
      <p className="notice-line">
        <span className="notice-mark" aria-hidden="true">
          {MARK[notice.outcome]}
        </span>{' '}
        <span className="notice-word">{WORD[notice.outcome]}</span> <code className="notice-code">{notice.request}</code>
        {notice.parts.map((part, i) => (
          <span key={i} className="notice-part">
            <span className="notice-sep" aria-hidden="true">
              {' · '}
            </span>
            {part.words}
            {part.id !== undefined && (
              <>
                {' '}
                <code className="notice-code">{part.id}</code>
              </>
            )}
          </span>
        ))}
      </p>
      <RelativeTime ms={message.createdAtMs} className="notice-time" />
    </article>
  );
}
