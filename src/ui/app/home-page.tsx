import { useEffect } from 'react';
import { useSessions } from '../features/sessions/api/get-sessions.ts';
import { errorMessage } from '../lib/error-message.ts';
import { navigate, sessionPath } from '../lib/router.tsx';

/** `/`: opens the most recent session, or says how to start one. */
export function HomePage() {
  const sessions = useSessions();
  const newest = sessions.data?.[0];

  useEffect(() => {
    // Replace, so Back does not land on `/` and bounce forward again.
    if (newest) navigate(sessionPath(newest.key), { replace: true });
  }, [newest]);

  if (sessions.isError) return <p className="inline-error page-note">Could not load your sessions: {errorMessage(sessions.error)}</p>;
  if (sessions.isPending || newest) return <p className="muted page-note">Opening your latest session…</p>;
  return (
    <div className="empty-state">
      <h1>No sessions yet</h1>
      <p className="muted">
        Start a session, then type <kbd>deploy</kbd>: the demo agent asks you a two-question prompt right above the composer.
        Agents you connect (Claude Code, Codex, <code>askdock ask</code>) ask here too.
      </p>
    </div>
  );
}
