import { memo, useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useQuestions } from '../api/get-questions.ts';
import { useArrivalFocus } from '../hooks/use-arrival-focus.ts';
import { useDockFocus } from '../hooks/use-dock-focus.ts';
import { useDockedSecrets } from '../hooks/use-docked-secrets.ts';
import { useMarksOf } from '../hooks/use-local-marks.ts';
import { useReminderEvents } from '../hooks/use-reminder-events.ts';
import { useRestoredFocus } from '../hooks/use-restored-focus.ts';
import { inDock, pickCurrent } from '../lib/placement.ts';
import { useDockUiActions, useSessionDock } from '../stores/dock-ui.ts';
import { LiveAnnouncer } from './live-announcer.tsx';
import { CollapsedBar, RequestPanel, SecretPrompt, SecretWaiting } from './dock-code.ts';

const NONE: QuestionRecord[] = [];

/** Carries out focus requests; its own component, so a request made and handled re-renders nothing else. */
function DockFocus(props: {
  sessionKey: string;
  regionRef: RefObject<HTMLElement | null>;
  composerRef: RefObject<HTMLDivElement | null>;
  shownId: string | null;
}) {
  useDockFocus(props.sessionKey, props.regionRef, props.composerRef, props.shownId);
  return null;
}

/**
 * The dock above the composer (U1): an expanded blocking question replaces the composer, an async one sits above it,
 * and collapsed, a slim bar keeps the count and the current question in sight.
 */
export const QuestionDock = memo(function QuestionDock({
  sessionKey,
  composer,
  sessionTitle,
}: {
  sessionKey: string;
  composer: ReactNode;
  /** Names the client that asks in the dock's header (T6, X5). */
  sessionTitle?: string;
}) {
  const marksOf = useMarksOf(sessionKey);
  const docked = useQuestions(useCallback((all: QuestionRecord[]) => all.filter((r) => inDock(r, sessionKey, marksOf(r.id))), [sessionKey, marksOf]));
  const requests = docked ?? NONE;
  // W4: a secret request of this session docks as a masked prompt, the oldest first; a sessionless one in the Inbox (U15).
  const { secret, readOnlySecret, answeredSecret } = useDockedSecrets(sessionKey);
  const dock = useSessionDock(sessionKey);
  const actions = useDockUiActions();
  const current = pickCurrent(requests, dock.currentId);
  // One panel at a time (one Submit, one Skip in the region): a pending secret request comes first and a question waits
  // behind its slim bar; "Expand questions" turns that round until the question is collapsed or the secret goes.
  const [questionFirstOver, setQuestionFirstOver] = useState<string | null>(null);
  // Brought back by "Enter secret": its field takes focus, so what is typed next goes there and never into the chat.
  const [secretReturned, setSecretReturned] = useState(false);
  // Collapsing ends "question first": a blocking question arriving later must not unmount a secret being typed.
  if (dock.collapsed && questionFirstOver !== null) setQuestionFirstOver(null);
  const questionFirst = secret !== undefined && questionFirstOver === secret.id && current !== undefined && !dock.collapsed;
  const showSecret = secret !== undefined && !questionFirst;
  const expanded = current !== undefined && !dock.collapsed && !showSecret;
  const regionRef = useRef<HTMLElement>(null);
  const composerRef = useRef<HTMLDivElement>(null);
  const focusWasInside = useRef(false);

  useArrivalFocus(sessionKey, composerRef, secret !== undefined);
  useRestoredFocus(sessionKey, docked !== undefined, expanded ? current : undefined, composerRef);
  const shownId = expanded ? current.id : null;
  useReminderEvents(sessionKey);
  useEffect(() => {
    // The shown request was answered elsewhere or ended under the user's focus: keep focus in a sensible place.
    const active = document.activeElement;
    if (!focusWasInside.current || (active && active !== document.body && active.isConnected)) return;
    focusWasInside.current = false;
    actions.focusRequested(sessionKey, 'request');
  }, [shownId, sessionKey, actions]);

  // Stable across renders, so the panel (memoised) re-renders only when what it shows changes.
  const latest = useRef({ requests, current });
  latest.current = { requests, current };
  const selectRelative = useCallback(
    (delta: number) => {
      const { requests, current } = latest.current;
      if (!current || requests.length < 2) return;
      const index = requests.indexOf(current);
      actions.requestSelected(sessionKey, requests[(index + delta + requests.length) % requests.length].id);
    },
    [actions, sessionKey],
  );

  return (
    <div className="qd-dock">
      <LiveAnnouncer sessionKey={sessionKey} />
      {(current || secret || readOnlySecret || answeredSecret) && (
        <section
          ref={regionRef}
          role="region"
          aria-label="Questions"
          className="qd-region"
          data-mode={current?.mode ?? 'secret'}
          onFocus={() => (focusWasInside.current = true)}
          onBlur={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null) && e.relatedTarget) focusWasInside.current = false;
          }}
        >
          {showSecret && <SecretPrompt key={secret.id} request={secret} focusField={secretReturned} />}
          {answeredSecret && <SecretPrompt key={answeredSecret.id} request={answeredSecret} />}
          {!current ? null : expanded ? (
            <RequestPanel
              sessionKey={sessionKey}
              record={current}
              position={requests.indexOf(current) + 1}
              requestCount={requests.length}
              onSelectRelative={selectRelative}
              sessionTitle={sessionTitle}
            />
          ) : (
            <CollapsedBar
              requests={requests}
              current={current}
              onExpand={() => {
                if (secret) setQuestionFirstOver(secret.id);
                setSecretReturned(false);
                actions.dockExpanded(sessionKey, { focus: true });
              }}
            />
          )}
          {readOnlySecret && <SecretPrompt key={readOnlySecret.id} request={readOnlySecret} />}
          {secret && !showSecret && <SecretWaiting
              name={secret.name}
              onShow={() => {
                setSecretReturned(true);
                setQuestionFirstOver(null);
              }}
            />}
        </section>
      )}
      <div ref={composerRef} className="qd-composer" hidden={expanded && current?.mode === 'blocking'}>
        {composer}
      </div>
      <DockFocus sessionKey={sessionKey} regionRef={regionRef} composerRef={composerRef} shownId={shownId} />
    </div>
  );
});
