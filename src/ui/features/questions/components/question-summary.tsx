import type { QuestionRecord } from '../../../../protocol/index.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useHello } from '../../../lib/gateway.tsx';
import { outcomeOf } from '../lib/model.ts';
import { useSentHere } from '../stores/drafts.ts';
import { dockUiActions } from '../stores/dock-ui.ts';

/** What the transcript keeps of a question: each wording with its answer, or the outcome beside the wording (U5, U7). */
export function QuestionSummary({ record, sessionKey }: { record: QuestionRecord; sessionKey: string }) {
  const identity = useHello()?.auth.identity;
  const outcome = outcomeOf(record, { sentHere: useSentHere(record.id), identity });
  const answered = record.status === 'answered';
  return (
    <div className="qd-summary" role="group" aria-label={`Question ${outcome.toLowerCase()}`} data-outcome={outcome}>
      <div className="qd-summary-head">
        <span className="qd-summary-outcome">{outcome}</span>
        {outcome === 'No longer pending' && (
          <Button variant="secondary" size="sm" onClick={() => dockUiActions().reminderReopened(sessionKey, record.id)}>
            Answer
          </Button>
        )}
      </div>
      <ul className="qd-summary-list">
        {record.questions.map((item) => {
          const values = record.answers?.[item.id];
          return (
            <li key={item.id} className="qd-summary-row">
              <span className="qd-summary-question">
                <span className="qd-chip">{item.header}</span> {item.question}
              </span>
              {answered && values && values.length > 0 && <span className="qd-summary-answer">{values.join(', ')}</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
