import { useMemo, useState, type ReactNode } from 'react';
import type { TranscriptExtraItem } from '../features/chat/lib/interleave.ts';
import { useSessionAgentId, useSessionPresence, useSessionTitle } from '../features/sessions/api/get-sessions.ts';
import { useIsDemoAgent } from '../features/agents/api/get-connect-info.ts';
import { AbsentAgentNote, AgentPresenceIndicator } from '../features/sessions/components/agent-presence.tsx';
import { QuestionDock } from '../features/questions/index.tsx';
import { useQuestions } from '../features/questions/api/get-questions.ts';
import { RunStatus } from '../features/chat/components/run-status.tsx';
import { SessionComposer } from './session-composer.tsx';
import { InTopBarWhenNarrow } from './header-slot.tsx';
import { lazyWithRetry } from '../lib/lazy-with-retry.ts';
import { useOutbox } from '../lib/outbox/use-outbox.ts';
import { LazyBoundary, LoadFailed } from '../components/lazy-boundary.tsx';

// Renaming is rare: its dialog's code stays out of the first load.
const RenameSession = lazyWithRetry(() => import('../features/sessions/components/rename-session.tsx'), (m) => m.RenameSession);
const Conversation = lazyWithRetry(() => import('./session-conversation.tsx'), (m) => m.SessionConversation);
// Fetched as soon as the app starts, beside the connection and the history it waits for; the composer never waits for it.
Conversation.preload();
// The outbox's chat messages in the transcript (U11): fetched at start too, so a message typed offline later shows.
const PendingMessagesFeed = lazyWithRetry(() => import('./pending-messages-feed.tsx'), (m) => m.PendingMessagesFeed);
PendingMessagesFeed.preload();
const NO_ITEMS: readonly TranscriptExtraItem[] = [];

/** Stands in for the transcript while its code arrives (or when it could not): the same log, before the history loads. */
function TranscriptStandIn({ children }: { children: ReactNode }) {
  return (
    <div role="log" aria-label="Conversation" className="transcript">
      {children}
    </div>
  );
}
const transcriptPending = (
  <TranscriptStandIn>
    <p className="muted transcript-note">Loading the conversation…</p>
  </TranscriptStandIn>
);
const transcriptFailed = (
  <TranscriptStandIn>
    <LoadFailed what="the conversation" className="transcript-note" />
  </TranscriptStandIn>
);

/**
 * While the agent waits on a blocking question it is not "working": the dock says what it waits for. Read by the two
 * lines that show it, so a question arriving or ending renders them again and not the page.
 */
const useWaitingOnQuestion = (sessionKey: string): boolean =>
  useQuestions((rs) => rs.some((r) => r.sessionKey === sessionKey && r.status === 'pending' && r.mode === 'blocking')) ?? false;

function Presence({ sessionKey, presence }: { sessionKey: string; presence: ReturnType<typeof useSessionPresence> }) {
  return <AgentPresenceIndicator presence={presence} waiting={useWaitingOnQuestion(sessionKey)} />;
}

function SessionRunStatus({ sessionKey }: { sessionKey: string }) {
  return <RunStatus sessionKey={sessionKey} waiting={useWaitingOnQuestion(sessionKey)} />;
}

/** `/s/<sessionKey>`: the conversation, with the question dock directly above the composer. */
export function SessionPage({ sessionKey }: { sessionKey: string }) {
  // Only the title: a session's activity changes with every message and question, and must not redraw the page.
  const title = useSessionTitle(sessionKey);
  const [pendingItems, setPendingItems] = useState(NO_ITEMS);
  const outbox = useOutbox();
  // Keyed, so each session gets a composer of its own (its draft, and the focus New session asks for).
  const composer = useMemo(() => <SessionComposer key={sessionKey} sessionKey={sessionKey} />, [sessionKey]);
  const presence = useSessionPresence(sessionKey);
  const absentNote = useMemo(() => <AbsentAgentNote presence={presence} />, [presence]);
  // Only the demo agent answers "deploy": other agents' sessions do not open with its greeting.
  const demoAgent = useIsDemoAgent(useSessionAgentId(sessionKey));

  return (
    <div className="session-page">
      <InTopBarWhenNarrow>
        <div className="session-title-row">
          <h1 className="session-title">{title ?? 'Session'}</h1>
          <Presence sessionKey={sessionKey} presence={presence} />
          {title !== undefined && (
            <LazyBoundary>
              <RenameSession sessionKey={sessionKey} title={title} />
            </LazyBoundary>
          )}
        </div>
      </InTopBarWhenNarrow>
      <LazyBoundary>
        <PendingMessagesFeed key={sessionKey} sessionKey={sessionKey} outbox={outbox} onItems={setPendingItems} />
      </LazyBoundary>
      <LazyBoundary pending={transcriptPending} failed={transcriptFailed}>
        <Conversation key={sessionKey} sessionKey={sessionKey} pendingItems={pendingItems} lastSentNote={absentNote} demoAgent={demoAgent} />
      </LazyBoundary>
      <SessionRunStatus sessionKey={sessionKey} />
      <div className="dock-area">
        <QuestionDock sessionKey={sessionKey} composer={composer} sessionTitle={title} />
      </div>
    </div>
  );
}
