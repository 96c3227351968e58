import { useState } from 'react';
import { VisuallyHidden } from 'radix-ui';
import { useGatewayEvent } from '../../../lib/gateway.tsx';
import { dockKeyOf } from '../../../lib/inbox.ts';
import { announcementFor } from '../lib/model.ts';

/** A polite live region that names each new question of this session (U12). */
export function LiveAnnouncer({ sessionKey }: { sessionKey: string }) {
  const [message, setMessage] = useState('');
  useGatewayEvent('question.requested', ({ question }) => {
    if (question.status !== 'pending' || dockKeyOf(question) !== sessionKey) return;
    // A trailing no-break space makes a repeated announcement a change screen readers read again.
    setMessage((prev) => {
      const text = announcementFor(question);
      return prev === text ? `${text}\u00a0` : text;
    });
  });
  return (
    <VisuallyHidden.Root role="status" aria-live="polite" aria-atomic="true">
      {message}
    </VisuallyHidden.Root>
  );
}
