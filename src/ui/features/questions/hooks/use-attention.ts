import { useEffect, useRef } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useGatewayEvent } from '../../../lib/gateway.tsx';

function notify(record: QuestionRecord) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const first = record.questions[0];
  try {
    const n = new Notification(`Question: ${first?.header ?? 'new question'}`, { body: first?.question, tag: record.id });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch {
    // Some browsers only notify from a service worker; the title still tells.
  }
}

/** A question arriving while the tab is hidden shows in the title, and as a notification when allowed (U13). */
export function useAttention() {
  const unseen = useRef(0);
  const baseTitle = useRef<string | null>(null);

  useGatewayEvent('question.requested', ({ question }) => {
    if (question.status !== 'pending' || typeof document === 'undefined' || !document.hidden) return;
    unseen.current += 1;
    baseTitle.current ??= document.title;
    document.title = `(${unseen.current}) Question: ${question.questions[0]?.header ?? 'new question'} — ${baseTitle.current}`;
    notify(question);
  });

  useEffect(() => {
    const restore = () => {
      if (document.hidden || baseTitle.current === null) return;
      document.title = baseTitle.current;
      baseTitle.current = null;
      unseen.current = 0;
    };
    document.addEventListener('visibilitychange', restore);
    return () => {
      document.removeEventListener('visibilitychange', restore);
      restore();
    };
  }, []);
}
