import { memo, useId } from 'react';
import type { Session } from '../../../../protocol/index.ts';
import { Link, sessionPath } from '../../../lib/router.tsx';
import { PendingBadge } from '../../../components/ui/pending-badge.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { VisuallyHidden } from '../../../components/ui/visually-hidden.tsx';
import { lastActivityMs, sessionTitle } from '../lib/session-list.ts';
import { SOURCE_LABEL, sessionSource } from '../lib/session-source.ts';
import { sessionPicked } from '../stores/sessions-panel-store.ts';
import { AgentPresenceIndicator } from './agent-presence.tsx';
import { SourceIcon } from './source-icon.tsx';
import { useFailedRuns } from '../../chat/stores/runs-store.ts';

/** A run of this session's agent ended with an error or a timeout while the page was open (the session shows which). */
function FailedRunMarker({ sessionKey }: { sessionKey: string }) {
  const failed = useFailedRuns(sessionKey).length > 0;
  if (!failed) return null;
  return (
    <span className="session-link-failed" role="img" aria-label="The agent stopped with an error" title="The agent stopped with an error">
      !
    </span>
  );
}

/**
 * One row of the sessions list: where it comes from, its title, a subtitle that tells equal titles apart (agent · last
 * activity) and, when questions wait in it, their count. Memoised: a `session.updated` event replaces one session in
 * the list and keeps the others' objects, so only that row is drawn again.
 */
export const SessionLink = memo(function SessionLink({ session, active, pending }: { session: Session; active: boolean; pending?: number }) {
  const count = pending ?? session.pendingQuestions;
  const source = sessionSource(session);
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
      <SourceIcon source={source} />
      <span className="session-link-text">
        <span className="session-link-title-row">
          <span className="session-link-title">{sessionTitle(session)}</span>
          <AgentPresenceIndicator presence={session.agentPresence} compact id={presenceId} waiting={count > 0} />
        </span>
        <span className="session-link-meta">
          <VisuallyHidden>, {SOURCE_LABEL[source]}: </VisuallyHidden>
          {session.agentId && (
            <>
              <span className="session-link-agent">{session.agentId}</span>
              {/* Read as a pause, so the agent and the time never run together in the link's name. */}
              <span aria-hidden="true"> · </span>
              <VisuallyHidden>, </VisuallyHidden>
            </>
          )}
          <RelativeTime ms={lastActivityMs(session)} />
        </span>
      </span>
      <FailedRunMarker sessionKey={session.key} />
      <PendingBadge count={count} />
    </Link>
  );
});
