import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useHello } from '../../../lib/gateway.tsx';
import { useSentHere } from '../stores/drafts.ts';
import { Link, sessionPath } from '../../../lib/router.tsx';
import { linkOutcome } from '../lib/link-outcome-word.ts';

const WHY: Record<string, string> = {
  'Answered elsewhere': 'Someone answered it elsewhere.',
  Skipped: 'It was skipped.',
  Expired: 'It expired before anyone answered.',
  Cancelled: 'The agent that asked withdrew it.',
};

/** An ended question: what this browser sent, or that it is no longer available, with its outcome beside the wording (U5, U7, U11). */
export function LinkOutcome({ record }: { record: QuestionRecord }) {
  const identity = useHello()?.auth.identity;
  const sent = useSentHere(record.id);
  const ended = linkOutcome(record, sent, identity);
  if (!ended) return null;
  const { outcome, ours } = ended;
  const answered = record.status === 'answered';
  return (
    <article className="question-link" aria-labelledby="question-link-title">
      <h1 id="question-link-title">{ours ? (answered ? 'Answer sent' : 'Skipped') : 'Question not available'}</h1>
      <p className="muted">{ours ? (answered ? 'Thanks: the agent has your answer.' : 'The agent continues on its own judgment.') : WHY[outcome]}</p>
      <section className="ql-summary" aria-label={`Question ${outcome.toLowerCase()}`} data-outcome={outcome}>
        <p className="ql-summary-outcome">{outcome}</p>
        <ul className="ql-summary-list">
          {record.questions.map((item) => {
            const values = answered ? record.answers?.[item.id] : undefined;
            return (
              <li key={item.id}>
                <span className="ql-chip">{item.header}</span> {item.question}
                {values && values.length > 0 && <span className="ql-summary-answer">{values.join(', ')}</span>}
              </li>
            );
          })}
        </ul>
      </section>
      {record.sessionKey && <Link to={sessionPath(record.sessionKey)}>Open the conversation</Link>}
    </article>
  );
}
