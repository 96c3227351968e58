import { useId, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { ScrollArea } from '../../../components/ui/scroll-area.tsx';
import { errorMessage } from '../../../lib/error-message.ts';
import { useSessions } from '../api/get-sessions.ts';
import { sessionsPanelToggled, useSessionsPanelOpen } from '../stores/sessions-panel-store.ts';
import { NewSessionButton } from './new-session-button.tsx';
import { SessionLink } from './session-link.tsx';

/** The sessions list (U12 navigation "Sessions"), `first` above it (the Inbox, U15); under 640 px it folds above the chat. */
type Props = {
  activeKey?: string;
  /** Above the list and never folded with it (the search box, U19). */
  top?: ReactNode;
  first?: ReactNode;
  /** Requests waiting in each session's dock, from the questions feature (app/ hands it over); else the gateway's count. */
  pendingCounts?: ReadonlyMap<string, number>;
};

export function SessionsNav({ activeKey, top, first, pendingCounts }: Props) {
  const sessions = useSessions();
  const open = useSessionsPanelOpen();
  const listId = useId();
  const count = sessions.data?.length ?? 0;

  return (
    <nav aria-label="Sessions" className="sessions" data-open={open}>
      <div className="sessions-head">
        <h2 className="sessions-heading">Sessions</h2>
        <Button
          size="sm"
          variant="ghost"
          className="sessions-toggle"
          aria-expanded={open}
          aria-controls={listId}
          onClick={sessionsPanelToggled}
        >
          {open ? 'Hide list' : `Show list (${count})`}
        </Button>
        <NewSessionButton />
      </div>
      {top}
      <div id={listId} className="sessions-body">
        {first}
        {sessions.isPending && <p className="muted sessions-note">Loading…</p>}
        {sessions.isError && <p className="inline-error sessions-note">Could not load sessions: {errorMessage(sessions.error)}</p>}
        {sessions.isSuccess && count === 0 && <p className="muted sessions-note">No sessions yet.</p>}
        {count > 0 && (
          <ScrollArea className="sessions-scroll">
            <ul className="sessions-list">
              {sessions.data!.map((session) => (
                <li key={session.key}>
                  <SessionLink session={session} active={session.key === activeKey} pending={pendingCounts ? (pendingCounts.get(session.key) ?? 0) : undefined} />
                </li>
              ))}
            </ul>
          </ScrollArea>
        )}
      </div>
    </nav>
  );
}
