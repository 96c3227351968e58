import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { ScrollArea } from '../../../components/ui/scroll-area.tsx';
import { errorCode, errorMessage } from '../../../lib/error-message.ts';
import { useMinuteClock } from '../../../lib/relative-time.ts';
import { useSessions } from '../api/get-sessions.ts';
import { CANNOT_LIST_SESSIONS, groupByDay } from '../lib/session-list.ts';
import { sessionPicked, sessionsPanelToggled, useSessionsPanelOpen } from '../stores/sessions-panel-store.ts';
import { NewSessionButton } from './new-session-button.tsx';
import { SessionLink } from './session-link.tsx';

/**
 * The sessions list (U12 navigation "Sessions"), `first` above it (the Inbox, U15), grouped by last activity. Under
 * 640 px it is a drawer: closed, only its menu button and New session show, in the top bar; open, it slides in over
 * the page (Escape, the backdrop or a picked session close it).
 */
type Props = {
  activeKey?: string;
  /** Above the list (the search box, U19). */
  top?: ReactNode;
  first?: ReactNode;
  /** Requests waiting in each session's dock, from the questions feature (app/ hands it over); else the gateway's count. */
  pendingCounts?: ReadonlyMap<string, number>;
};

const MenuIcon = ({ open }: { open: boolean }) => (
  <svg width="18" height="18" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" aria-hidden="true" focusable="false">
    {open ? <path d="M4 4l8 8M12 4l-8 8" /> : <path d="M2.5 4h11M2.5 8h11M2.5 12h11" />}
  </svg>
);

// The same element each render: the list renders again for every count and minute, the button never changes.
const newSessionButton = <NewSessionButton />;

/** Whether the list is a drawer now (under 640 px, as the stylesheet says); wide screens always show it. */
const isDrawer = () => typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 639.98px)').matches;

export function SessionsNav({ activeKey, top, first, pendingCounts }: Props) {
  const sessions = useSessions();
  const open = useSessionsPanelOpen();
  const listId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const now = useMinuteClock();
  const count = sessions.data?.length ?? 0;
  const groups = count > 0 ? groupByDay(sessions.data!, now) : [];
  // Closed on a narrow screen, the menu button says how many requests wait in the other sessions.
  let waitingElsewhere = 0;
  for (const s of sessions.data ?? []) if (s.key !== activeKey) waitingElsewhere += pendingCounts ? (pendingCounts.get(s.key) ?? 0) : s.pendingQuestions;

  const close = () => {
    sessionPicked();
    toggle.current?.focus();
  };
  // Escape closes the open drawer wherever focus is (a field inside that uses Escape itself marks it handled).
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || !isDrawer() || document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      event.preventDefault();
      sessionPicked();
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  return (
    <nav
      aria-label="Sessions"
      className="sessions"
      data-open={open}
      // Focus reaching a folded part (the search box by `/`, Tab) opens the drawer; leaving it closes the drawer.
      onFocus={(event) => {
        if (!open && isDrawer() && event.target.closest('.sessions-top, .sessions-body')) sessionsPanelToggled();
      }}
      onBlur={(event) => {
        const next = event.relatedTarget as Node | null;
        if (open && isDrawer() && next && !event.currentTarget.contains(next) && !(next instanceof Element && next.closest('[role="dialog"]'))) sessionPicked();
      }}
    >
      <div className="sessions-head">
        <Button
          ref={toggle}
          size="sm"
          variant="ghost"
          className="sessions-toggle btn-icon"
          aria-expanded={open}
          aria-controls={listId}
          aria-label={open ? 'Close sessions' : waitingElsewhere > 0 ? `Open sessions, ${waitingElsewhere} waiting elsewhere` : 'Open sessions'}
          title={open ? 'Close sessions' : `Open sessions (${count})`}
          onClick={sessionsPanelToggled}
        >
          <MenuIcon open={open} />
          {!open && waitingElsewhere > 0 && (
            <span className="badge sessions-toggle-count" aria-hidden="true">
              {waitingElsewhere}
            </span>
          )}
        </Button>
        <h2 className="sessions-heading">Sessions</h2>
        {newSessionButton}
      </div>
      <div className="sessions-top">{top}</div>
      <div id={listId} className="sessions-body">
        {first}
        {sessions.isPending && <p className="muted sessions-note">Loading…</p>}
        {sessions.isError && (
          <p className="inline-error sessions-note">
            {errorCode(sessions.error) === 'FORBIDDEN'
              ? CANNOT_LIST_SESSIONS
              : `Could not load sessions: ${errorMessage(sessions.error)}`}
          </p>
        )}
        {sessions.isSuccess && count === 0 && <p className="muted sessions-note">No sessions yet.</p>}
        {count > 0 && (
          <ScrollArea className="sessions-scroll">
            {groups.map((group) => (
              <div key={group.label} className="sessions-group">
                <h3 className="sessions-group-label">
                  {group.label}
                </h3>
                <ul className="sessions-list">
                  {group.sessions.map((session) => (
                    <li key={session.key}>
                      <SessionLink session={session} active={session.key === activeKey} pending={pendingCounts ? (pendingCounts.get(session.key) ?? 0) : undefined} />
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </ScrollArea>
        )}
      </div>
      {open && <div className="sessions-backdrop" aria-hidden="true" onClick={close} />}
    </nav>
  );
}
