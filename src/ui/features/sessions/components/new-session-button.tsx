import { Button } from '../../../components/ui/button.tsx';
import { composerFocusDropped, composerFocusRequested } from '../../../lib/composer-focus.ts';
import { errorMessage } from '../../../lib/error-message.ts';
import { navigate, sessionPath } from '../../../lib/router.tsx';
import { useCreateSession } from '../api/create-session.ts';
import { sessionPicked } from '../stores/sessions-panel-store.ts';

/** Creates a session and opens it (C1). */
export function NewSessionButton() {
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
  return (
    <div className="new-session">
      <Button variant="primary" size="sm" onClick={start} disabled={create.isPending}>
        New session
      </Button>
      {create.isError && (
        <p className="inline-error" role="alert">
          Could not create a session: {errorMessage(create.error)}
        </p>
      )}
    </div>
  );
}
