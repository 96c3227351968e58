import { memo, useId } from 'react';
import type { Session } from '../../../../protocol/index.ts';
import { Link, sessionPath } from '../../../lib/router.tsx';
import { PendingBadge } from '../../../components/ui/pending-badge.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { lastActivityMs, sessionTitle } from '../lib/session-list.ts';
import { sessionPicked } from '../stores/sessions-panel-store.ts';
import { AgentPresenceIndicator } from './agent-presence.tsx';

/**
 * One row of the sessions list: its title and, when questions wait in it, their count. Memoised: a `session.updated`
 * event replaces one session in the list and keeps the others' objects, so only that row is drawn again.
 */
export const SessionLink = memo(function SessionLink({ session, active, pending }: { session: Session; active: boolean; pending?: number }) {
  const count = pending ?? session.pendingQuestions;
  const presenceId = useId();
  return (
    <Link
      to={sessionPath(session.key)}
      className="session-link"
      aria-current={active ? 'page' : undefined}
      title={sessionTitle(session)}
      onClick={sessionPicked}
      aria-describedby={session.agentPresence ? presenceId : undefined}
    >
      <AgentPresenceIndicator presence={session.agentPresence} compact id={presenceId} />
      <span className="session-link-title">{sessionTitle(session)}</span>
      <RelativeTime className="session-link-meta" ms={lastActivityMs(session)} />
      <PendingBadge count={count} />
    </Link>
  );
});
