import { memo, useId } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useHello } from '../../../lib/gateway.tsx';
import { readBackReply } from '../../../../answers/async-reply.ts';
import { answeredByText, approversText } from '../../../../lib/answered-by.ts';
import { useSentHere } from '../stores/drafts.ts';
import { useLocalMarks } from '../hooks/use-local-marks.ts';
import { deliveryNote } from '../../../lib/outbox/machine.ts';
import { cardStatus } from '../lib/card-status.ts';
import { outcomeOf } from '../lib/placement.ts';
import { shownOutcome } from '../lib/resolved-here.ts';
import { summaryReply } from '../lib/summary-reply.ts';
import { OwnPageLink } from './own-page-link.tsx';
import { SummaryActions } from './summary-actions.tsx';
import { SummaryAnswers } from './summary-answers.tsx';
import type { SummarySlots } from './summary-slots.ts';

type Props = { record: QuestionRecord; sessionKey: string; slots?: SummarySlots };

/**
 * What the transcript keeps of a question: each wording with its answer, or the outcome beside the wording (U5, U7),
 * and for an async answer its delivery, read back from the saved reply (U8, U9).
 */
export const QuestionSummary = memo(function QuestionSummary({ record, sessionKey, slots }: Props) {
  const identity = useHello()?.auth.identity;
  const marks = useLocalMarks(record.id);
  const outcome = outcomeOf(record, { sentHere: useSentHere(record.id), identity, marks, sentMessageId: marks.row?.messageId });
  const shown = shownOutcome(outcome);
  const status = cardStatus(record, outcome, marks.delivery);
  const note = marks.row ? deliveryNote(marks.row) : undefined;
  const noteId = useId();
  const reply = summaryReply(record, marks.row, slots?.replies);
  const readBack = reply ? readBackReply(record, reply.text, reply.answers) : undefined;
  const Delivery = slots?.Delivery;
  const Receipt = slots?.Receipt;
  // E7: a routed question says who answered it, and where ("Answered by Dana · TUI"); the answer below says Allow or Deny.
  const by = answeredByText(record);
  // E5: a quorum's approvers, on a line of their own.
  const approvers = approversText(record);
  return (
    // The group keeps the outcome's name (what was done with the question); the pill says where it stands.
    <div className="qd-summary" role="group" aria-label={`Question ${shown.label.toLowerCase()}`} data-outcome={status}>
      <div className="qd-summary-head">
        <span className="qd-summary-outcome" role="status" aria-describedby={note ? noteId : undefined}>
          {status}
        </span>
        {by ? <span className="qd-summary-where">{by}</span> : shown.where && <span className="qd-summary-where">{shown.where}</span>}
        <SummaryActions recordId={record.id} sessionKey={sessionKey} outcome={outcome} skippedAtMs={marks.skippedAtMs} retiredAtMs={record.retiredAtMs} />
        <span className="qd-summary-links">
          <OwnPageLink recordId={record.id} />
          {Receipt && record.receipt && <Receipt receipt={record.receipt} />}
        </span>
      </div>
      {approvers && <p className="qd-summary-note">{approvers}</p>}
      {note && (
        <p id={noteId} className="qd-summary-note">
          {note}
        </p>
      )}
      <SummaryAnswers record={record} readBack={readBack} answered={record.status === 'answered'} />
      {Delivery && record.mode === 'async' && <Delivery questionId={record.id} />}
    </div>
  );
});
