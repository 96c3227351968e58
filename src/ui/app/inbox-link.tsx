import { PendingBadge } from '../components/ui/pending-badge.tsx';
import { usePendingCount } from '../features/questions/index.tsx';
import { INBOX_KEY, INBOX_PATH } from '../lib/inbox.ts';
import { Link } from '../lib/router.tsx';

/** U15: first in the Sessions list, where questions asked without a session dock, with how many wait there. */
export function InboxLink({ active }: { active: boolean }) {
  const count = usePendingCount(INBOX_KEY);
  return (
    <div className="inbox-row">
      <Link to={INBOX_PATH} className="session-link inbox-link" aria-current={active ? 'page' : undefined}>
        <span className="session-link-title">Inbox</span>
        <PendingBadge count={count} />
      </Link>
    </div>
  );
}
