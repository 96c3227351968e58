import { useMemo } from 'react';
import { ReceiptSlot } from '../features/audit/components/receipt-slot.tsx';
import { QuestionDock, type SummarySlots } from '../features/questions/index.tsx';
import { useQuestionTranscriptItems } from '../features/questions/transcript.tsx';
import { INBOX_KEY } from '../lib/inbox.ts';

/** L4: a decided question's receipt, as in a session's transcript; the Inbox has no replies or outbox to show. */
const INBOX_SLOTS: SummarySlots = { Receipt: ReceiptSlot };

/** The Inbox has no conversation to write in: the dock sits above this note instead of a composer. */
function InboxNote() {
  return <p className="muted composer-note">Questions asked without a session (an SDK script, say) wait here. Agents that name a session ask there instead.</p>;
}

/** `/inbox` (U15): docks every sessionless question this person may answer, and keeps their summaries after they end. */
export function InboxPage() {
  const items = useQuestionTranscriptItems(INBOX_KEY, INBOX_SLOTS);
  const sorted = useMemo(() => [...items].sort((a, b) => a.atMs - b.atMs), [items]);
  const note = useMemo(() => <InboxNote />, []);
  return (
    // Empty, the history's note sits right under the heading instead of at the foot of the room a conversation leaves.
    <div className={sorted.length === 0 ? 'session-page inbox-page-empty' : 'session-page'}>
      <h1 className="session-title">Inbox</h1>
      <div role="log" aria-label="Conversation" className="transcript inbox-history">
        {sorted.length === 0 ? (
          <p className="muted transcript-note">No question has ended here yet: answered, skipped and expired ones keep their summaries here.</p>
        ) : (
          <ul className="inbox-items">
            {sorted.map((item) => (
              <li key={item.key}>{item.node}</li>
            ))}
          </ul>
        )}
      </div>
      <div className="dock-area">
        <QuestionDock sessionKey={INBOX_KEY} composer={note} />
      </div>
    </div>
  );
}
