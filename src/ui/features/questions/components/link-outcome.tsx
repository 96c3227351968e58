import type { ReactNode } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { endedOutcome } from '../../../../answers/summary.ts';
import { CheckIcon, InfoIcon } from '../../../components/ui/icons.tsx';
import { useHello } from '../../../lib/gateway.tsx';
import { answeredByText, approversText } from '../../../../lib/answered-by.ts';
import { Link, sessionPath } from '../../../lib/router.tsx';
import { ANSWERED_IN_ANOTHER_TAB, answeredInAnotherTab, resolvedHere, shownOutcome } from '../lib/resolved-here.ts';
import { useSentHere } from '../stores/drafts.ts';
import { SummaryAnswers } from './summary-answers.tsx';

const WHY: Record<string, string> = {
  'Answered elsewhere': 'Someone answered it elsewhere.',
  [ANSWERED_IN_ANOTHER_TAB]: 'You answered it in another tab or browser.',
  Skipped: 'It was skipped.',
  Expired: 'It expired before anyone answered.',
  Cancelled: 'The agent that asked withdrew it.',
};

type NoticeProps = { title: string; text: string; done?: boolean; children?: ReactNode };

/** The link page's card when there is nothing to answer: a mark, one heading, what it means, then the details. */
export function LinkNotice({ title, text, done = false, children }: NoticeProps) {
  return (
    <article className="question-link" aria-labelledby="question-link-title">
      <div className="ql-outcome">
        <span className="ql-outcome-mark" data-tone={done ? 'ok' : undefined}>
          {done ? <CheckIcon /> : <InfoIcon />}
        </span>
        <h1 id="question-link-title">{title}</h1>
        <p className="muted">{text}</p>
        {children}
      </div>
    </article>
  );
}

/** An ended question: what this browser sent, or that it is no longer available, with its outcome beside the wording (U5, U7, U11). */
export function LinkOutcome({ record }: { record: QuestionRecord }) {
  const identity = useHello()?.auth.identity;
  const ours = resolvedHere(record, useSentHere(record.id), identity);
  const ended = endedOutcome(record.status, ours);
  const outcome = ended === 'Answered elsewhere' && answeredInAnotherTab(record, identity) ? ANSWERED_IN_ANOTHER_TAB : ended;
  if (!outcome) return null;
  const shown = shownOutcome(outcome);
  const answered = record.status === 'answered';
  // E7: a routed question answered by someone else says who, and where ("Answered by Dana · TUI"), as the dock's summary.
  const by = ours ? null : answeredByText(record);
  const approvers = by && approversText(record);
  return (
    <LinkNotice
      title={ours ? (answered ? 'Answer sent' : 'Skipped') : 'Question no longer available'}
      text={ours ? (answered ? 'Thanks: the agent has your answer.' : 'The agent continues on its own judgment.') : WHY[outcome]}
      done={ours && answered}
    >
      <section className="qd-summary" aria-label={`Question ${shown.label.toLowerCase()}`} data-outcome={shown.label}>
        <div className="qd-summary-head">
          <span className="qd-summary-outcome">{shown.label}</span>
          {by ? <span className="qd-summary-where">{by}</span> : shown.where && <span className="qd-summary-where">{shown.where}</span>}
        </div>
        {approvers && <p className="qd-summary-note">{approvers}</p>}
        <SummaryAnswers record={record} readBack={undefined} answered={answered} />
      </section>
      {record.sessionKey && (
        <Link className="ql-conversation" to={sessionPath(record.sessionKey)}>
          Open the conversation
        </Link>
      )}
    </LinkNotice>
  );
}
