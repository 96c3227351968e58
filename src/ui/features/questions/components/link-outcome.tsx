import type { QuestionRecord } from '../../../../protocol/index.ts';
import { endedOutcome } from '../../../../answers/summary.ts';
import { useHello } from '../../../lib/gateway.tsx';
import { Link, sessionPath } from '../../../lib/router.tsx';
import { resolvedHere } from '../lib/resolved-here.ts';
import { useSentHere } from '../stores/drafts.ts';
import { SummaryAnswers } from './summary-answers.tsx';

const WHY: Record<string, string> = {
  'Answered elsewhere': 'Someone answered it elsewhere.',
  Skipped: 'It was skipped.',
  Expired: 'It expired before anyone answered.',
  Cancelled: 'The agent that asked withdrew it.',
};

/** An ended question: what this browser sent, or that it is no longer available, with its outcome beside the wording (U5, U7, U11). */
export function LinkOutcome({ record }: { record: QuestionRecord }) {
  const identity = useHello()?.auth.identity;
  const ours = resolvedHere(record, useSentHere(record.id), identity);
  const outcome = endedOutcome(record.status, ours);
  if (!outcome) return null;
  const answered = record.status === 'answered';
  return (
    <article className="question-link" aria-labelledby="question-link-title">
      <h1 id="question-link-title">{ours ? (answered ? 'Answer sent' : 'Skipped') : 'Question not available'}</h1>
      <p className="muted">{ours ? (answered ? 'Thanks: the agent has your answer.' : 'The agent continues on its own judgment.') : WHY[outcome]}</p>
      <section className="qd-summary" aria-label={`Question ${outcome.toLowerCase()}`} data-outcome={outcome}>
        <div className="qd-summary-head">
          <span className="qd-summary-outcome">{outcome}</span>
        </div>
        <SummaryAnswers record={record} readBack={undefined} answered={answered} />
      </section>
      {record.sessionKey && <Link to={sessionPath(record.sessionKey)}>Open the conversation</Link>}
    </article>
  );
}
