import { Transcript } from '../features/chat/components/transcript.tsx';
import { useSessions } from '../features/sessions/api/get-sessions.ts';
import { sessionTitle } from '../features/sessions/lib/session-list.ts';
import { QuestionDock, useQuestionTranscriptItems } from '../features/questions/index.tsx';
import { SessionComposer } from './session-composer.tsx';
import { useSummarySlots } from './use-summary-slots.ts';

/** `/s/<sessionKey>`: the conversation, with the question dock directly above the composer. */
export function SessionPage({ sessionKey }: { sessionKey: string }) {
  const session = useSessions().data?.find((s) => s.key === sessionKey);
  const questionItems = useQuestionTranscriptItems(sessionKey, useSummarySlots(sessionKey));

  return (
    <div className="session-page">
      <h1 className="session-title">{session ? sessionTitle(session) : 'Session'}</h1>
      <Transcript key={sessionKey} sessionKey={sessionKey} extraItems={questionItems} />
      <div className="dock-area">
        <QuestionDock sessionKey={sessionKey} composer={<SessionComposer sessionKey={sessionKey} />} />
      </div>
    </div>
  );
}
