import type { ReactNode } from 'react';
import { PendingBadge } from '../components/ui/pending-badge.tsx';
import { usePendingCount } from '../features/questions/index.tsx';
import { INBOX_KEY, INBOX_PATH } from '../lib/inbox.ts';
import { Link } from '../lib/router.tsx';

/** U15: first in the Sessions list, where questions asked without a session dock, with how many wait there; `after`: more such pages (Rules). */
export function InboxLink({ active, after, onPreload }: { active: boolean; after?: ReactNode; onPreload?: () => void }) {
  const count = usePendingCount(INBOX_KEY);
  return (
    <div className="inbox-row">
      <Link to={INBOX_PATH} className="session-link inbox-link" aria-current={active ? 'page' : undefined} onPointerEnter={onPreload} onFocus={onPreload}>
        <svg className="session-source" width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" aria-hidden="true" focusable="false">
          <path d="M2 9.5 3.8 3.5h8.4L14 9.5V13H2V9.5Zm0 0h3.5l.8 1.5h3.4l.8-1.5H14" />
        </svg>
        <span className="session-link-title">Inbox</span>
        <PendingBadge count={count} />
      </Link>
      {after}
    </div>
  );
}
