import { lazy, Suspense, useMemo } from 'react';
import { useSessionPresence, useSessionTitle } from '../features/sessions/api/get-sessions.ts';
import { AbsentAgentNote, AgentPresenceIndicator } from '../features/sessions/components/agent-presence.tsx';
import { QuestionDock, ReplyAnswers, useQuestionTranscriptItems } from '../features/questions/index.tsx';
import { useQuestions } from '../features/questions/api/get-questions.ts';
import { RunStatus } from '../features/chat/components/run-status.tsx';
import { SessionComposer } from './session-composer.tsx';
import { useSummarySlots } from './use-summary-slots.ts';

// Fetched as soon as the app starts, beside the connection and the history it waits for; the composer never waits for it.
const transcriptModule = import('../features/chat/components/transcript.tsx');
// Renaming is rare: its dialog's code stays out of the first load.
const RenameSession = lazy(() => import('../features/sessions/components/rename-session.tsx').then((m) => ({ default: m.RenameSession })));
const Transcript = lazy(() => transcriptModule.then((m) => ({ default: m.Transcript })));

/** Stands in for the transcript while its code arrives: the same log, as it looks before the history loads. */
function TranscriptPending() {
  return (
    <div role="log" aria-label="Conversation" className="transcript">
      <p className="muted transcript-note">Loading the conversation…</p>
    </div>
  );
}

/** `/s/<sessionKey>`: the conversation, with the question dock directly above the composer. */
export function SessionPage({ sessionKey }: { sessionKey: string }) {
  // Only the title: a session's activity changes with every message and question, and must not redraw the page.
  const title = useSessionTitle(sessionKey);
  const questionItems = useQuestionTranscriptItems(sessionKey, useSummarySlots(sessionKey));
  // While the agent waits on a blocking question it is not "working": the dock says what it waits for.
  const waiting = useQuestions((rs) => rs.some((r) => r.sessionKey === sessionKey && r.status === 'pending' && r.mode === 'blocking')) ?? false;
  // Keyed, so each session gets a composer of its own (its draft, and the focus New session asks for).
  const composer = useMemo(() => <SessionComposer key={sessionKey} sessionKey={sessionKey} />, [sessionKey]);
  const presence = useSessionPresence(sessionKey);
  const absentNote = useMemo(() => <AbsentAgentNote presence={presence} />, [presence]);

  return (
    <div className="session-page">
      <div className="session-title-row">
        <h1 className="session-title">{title ?? 'Session'}</h1>
        <AgentPresenceIndicator presence={presence} />
        {title !== undefined && (
          <Suspense fallback={null}>
            <RenameSession sessionKey={sessionKey} title={title} />
          </Suspense>
        )}
      </div>
      <Suspense fallback={<TranscriptPending />}>
        <Transcript key={sessionKey} sessionKey={sessionKey} extraItems={questionItems} ReplyBody={ReplyAnswers} lastSentNote={absentNote} />
      </Suspense>
      <RunStatus sessionKey={sessionKey} waiting={waiting} />
      <div className="dock-area">
        <QuestionDock sessionKey={sessionKey} composer={composer} />
      </div>
    </div>
  );
}
