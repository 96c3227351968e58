import { useEffect } from 'react';
import { useSessions } from '../features/sessions/api/get-sessions.ts';
import { CANNOT_LIST_SESSIONS } from '../features/sessions/lib/session-list.ts';
import { useConnectInfo } from '../features/agents/api/get-connect-info.ts';
import { EmptyIllustration } from '../components/ui/icons.tsx';
import { errorCode, errorMessage } from '../lib/error-message.ts';
import { navigate, sessionPath } from '../lib/router.tsx';
import { lazyWithRetry } from '../lib/lazy-with-retry.ts';
import { LazyBoundary, LoadFailed } from '../components/lazy-boundary.tsx';
import { useMayAnswerQuestions, useMayCreateSessions } from '../lib/use-scopes.ts';

// Only an admin on a gateway without the demo agent sees it: its code stays out of the first load.
const ConnectAgent = lazyWithRetry(() => import('../features/agents/components/connect-agent.tsx'), (m) => m.ConnectAgent);

/** `/`: opens the most recent session, or says how to start one (or, to a sign-in that may not, where questions will show). */
export function HomePage() {
  const sessions = useSessions();
  const newest = sessions.data?.[0];
  // U18: an admin on a gateway without the demo agent is shown how to connect one instead of the demo's steps.
  const connect = useConnectInfo();
  const mayCreate = useMayCreateSessions();
  const mayAnswer = useMayAnswerQuestions();

  useEffect(() => {
    // Replace, so Back does not land on `/` and bounce forward again.
    if (newest) navigate(sessionPath(newest.key), { replace: true });
  }, [newest]);

  if (sessions.isError)
    return (
      <p className="inline-error page-note">
        {errorCode(sessions.error) === 'FORBIDDEN' ? CANNOT_LIST_SESSIONS : `Could not load your sessions: ${errorMessage(sessions.error)}`}
      </p>
    );
  if (sessions.isPending || newest) return <p className="muted page-note">Opening your latest session…</p>;
  if (connect.isPending && connect.fetchStatus !== 'idle') return null;
  if (connect.data && !connect.data.agents.some((a) => a.demo)) return (
      <LazyBoundary failed={<LoadFailed what="how to connect an agent" />}>
        <ConnectAgent info={connect.data} />
      </LazyBoundary>
    );
  if (mayCreate === false) return <CannotStartEmptyState answers={mayAnswer === true} />;
  return (
    <section className="empty-state" aria-labelledby="empty-state-title">
      <EmptyIllustration />
      <h1 id="empty-state-title">No sessions yet</h1>
      <p className="empty-state-lead">
        Start a session, then type <kbd>deploy</kbd>.
      </p>
      <ol className="empty-steps">
        <li>
          <span className="empty-step-key" aria-hidden="true">1</span>
          <span>
            Press <strong>New session</strong> in the sessions list.
          </span>
        </li>
        <li>
          <span className="empty-step-key" aria-hidden="true">2</span>
          <span>
            Type <kbd>deploy</kbd>: the demo agent asks you a two-question prompt right above the composer.
          </span>
        </li>
        <li>
          <span className="empty-step-key" aria-hidden="true">3</span>
          <span>
            Connect your own agents (<code>askdock mcp</code>, <code>askdock ask</code>): their questions dock here too.
          </span>
        </li>
      </ol>
    </section>
  );
}

/** Who may start a session (C1, SESSION_CREATOR_SCOPES), besides an agent. */
const WHO_STARTS = 'Sessions start from an agent or from a sign-in that may start them (operator.admin, operator.write or operator.sessions.write)';

/**
 * A5: no sessions, for a sign-in that may not start one: what it can do instead. With operator.questions, answer the
 * questions that reach it; operator.read alone sees no questions (A3), only the sessions agents start.
 */
function CannotStartEmptyState({ answers }: { answers: boolean }) {
  return (
    <section className="empty-state" aria-labelledby="empty-state-title">
      <EmptyIllustration />
      <h1 id="empty-state-title">No sessions yet</h1>
      {answers ? (
        <>
          <p className="empty-state-lead">Questions that reach this sign-in will appear here, ready to answer.</p>
          <p className="muted empty-state-note">
            {WHO_STARTS}; questions asked without a session wait in the <strong>Inbox</strong>.
          </p>
        </>
      ) : (
        <>
          <p className="empty-state-lead">Sessions started by agents or other sign-ins will appear here to read.</p>
          <p className="muted empty-state-note">{WHO_STARTS}.</p>
        </>
      )}
    </section>
  );
}
