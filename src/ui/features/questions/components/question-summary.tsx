import { memo } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useHello } from '../../../lib/gateway.tsx';
import { readBackReply } from '../../../../answers/async-reply.ts';
import { useSentHere } from '../stores/drafts.ts';
import { useLocalMarks } from '../hooks/use-local-marks.ts';
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
  const reply = summaryReply(record, marks.row, slots?.replies);
  const readBack = reply ? readBackReply(record, reply.text, reply.answers) : undefined;
  const Delivery = slots?.Delivery;
  // Sent with no outbox row left (pruned, cleared, another tab's storage): the gateway's record is the confirmation.
  const savedReplyId = outcome === 'Answered' ? record.replyMessageId : undefined;
  return (
    <div className="qd-summary" role="group" aria-label={`Question ${shown.label.toLowerCase()}`} data-outcome={shown.label}>
      <div className="qd-summary-head">
        <span className="qd-summary-outcome">{shown.label}</span>
        {shown.where && <span className="qd-summary-where">{shown.where}</span>}
        <SummaryActions recordId={record.id} sessionKey={sessionKey} outcome={outcome} skippedAtMs={marks.skippedAtMs} retiredAtMs={record.retiredAtMs} />
        <OwnPageLink recordId={record.id} />
      </div>
      <SummaryAnswers record={record} readBack={readBack} answered={record.status === 'answered'} />
      {Delivery && record.mode === 'async' && <Delivery questionId={record.id} savedReplyId={savedReplyId} />}
    </div>
  );
});
