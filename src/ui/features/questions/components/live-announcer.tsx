import { useState } from 'react';
import { VisuallyHidden } from '../../../components/ui/visually-hidden.tsx';
import { useGatewayEvent } from '../../../lib/gateway.tsx';
import { dockKeyOf } from '../../../lib/inbox.ts';
import { announcementFor } from '../lib/model.ts';

/**
 * A polite live region that names each new question (U12): this session's by its wording, another session's (or the
 * Inbox's) as waiting there, so a screen reader hears of it too where the sessions list only shows a count. Without
 * `sessionKey` (a page with no dock: home, Rules, On call) every question is one waiting elsewhere.
 */
export function LiveAnnouncer({ sessionKey }: { sessionKey?: string }) {
  const [message, setMessage] = useState('');
  useGatewayEvent('question.requested', ({ question }) => {
    if (question.status !== 'pending') return;
    const here = sessionKey !== undefined && dockKeyOf(question) === sessionKey;
    const elsewhere = question.sessionKey === undefined ? 'in the Inbox' : sessionKey === undefined ? 'in a session' : 'in another session';
    // A trailing no-break space makes a repeated announcement a change screen readers read again.
    setMessage((prev) => {
      const text = here ? announcementFor(question) : `${announcementFor(question)}, ${elsewhere}`;
      return prev === text ? `${text}\u00a0` : text;
    });
  });
  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="true">
      {message}
    </VisuallyHidden>
  );
}
