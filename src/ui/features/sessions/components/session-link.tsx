import type { Session } from '../../../../protocol/index.ts';
import { Link, sessionPath } from '../../../lib/router.tsx';
import { VisuallyHidden } from '../../../components/ui/visually-hidden.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { lastActivityMs, sessionTitle } from '../lib/session-list.ts';
import { sessionPicked } from '../stores/sessions-panel-store.ts';

/** One row of the sessions list: its title and, when questions wait in it, their count. */
export function SessionLink({ session, active }: { session: Session; active: boolean }) {
  const count = session.pendingQuestions;
  return (
    <Link
      to={sessionPath(session.key)}
      className="session-link"
      aria-current={active ? 'page' : undefined}
      title={sessionTitle(session)}
      onClick={sessionPicked}
    >
      <span className="session-link-title">{sessionTitle(session)}</span>
      <RelativeTime className="session-link-meta" ms={lastActivityMs(session)} />
      {count > 0 && (
        <span className="badge">
          {count}
          <VisuallyHidden>{count === 1 ? ' pending question' : ' pending questions'}</VisuallyHidden>
        </span>
      )}
    </Link>
  );
}
