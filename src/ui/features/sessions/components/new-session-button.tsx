import { Button } from '../../../components/ui/button.tsx';
import { composerFocusDropped, composerFocusRequested } from '../../../lib/composer-focus.ts';
import { errorMessage } from '../../../lib/error-message.ts';
import { navigate, sessionPath } from '../../../lib/router.tsx';
import { useMayCreateSessions } from '../../../lib/use-scopes.ts';
import { useCreateSession } from '../api/create-session.ts';
import { sessionPicked } from '../stores/sessions-panel-store.ts';

/**
 * Creates a session and opens it (C1); not there for a sign-in that may not create one (A5: it would only be refused),
 * nor before the gateway says which this one is.
 */
export function NewSessionButton() {
  const mayCreate = useMayCreateSessions();
  const create = useCreateSession();
  const start = () => {
    composerFocusRequested();
    create.mutate(
      {},
      {
        onSuccess: (session) => {
          sessionPicked();
          navigate(sessionPath(session.key));
        },
        onError: composerFocusDropped,
      },
    );
  };
  if (mayCreate !== true) return null;
  return (
    <div className="new-session">
      <Button variant="primary" size="sm" className="new-session-button" onClick={start} disabled={create.isPending}>
        <svg width="14" height="14" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" aria-hidden="true" focusable="false">
          <path d="M8 3v10M3 8h10" />
        </svg>
        <span className="new-session-label">New session</span>
      </Button>
      {create.isError && (
        <p className="inline-error" role="alert">
          Could not create a session: {errorMessage(create.error)}
        </p>
      )}
    </div>
  );
}
