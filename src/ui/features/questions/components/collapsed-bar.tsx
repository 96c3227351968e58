import { Button } from '../../../components/ui/button.tsx';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useDraftStep } from '../stores/drafts.ts';
import { pendingCount } from '../lib/model.ts';

type Props = { requests: QuestionRecord[]; current: QuestionRecord; onExpand: () => void };

/** The slim bar over the composer: the unanswered count and the current question stay in sight (U1, U8). */
export function CollapsedBar({ requests, current, onExpand }: Props) {
  const step = Math.min(useDraftStep(current.id), current.questions.length - 1);
  const item = current.questions[step];
  return (
    <div className="qd-collapsed">
      <span className="qd-badge">{pendingCount(requests)} pending</span>
      <span className="qd-collapsed-text" title={item?.question}>
        {item && <span className="qd-chip">{item.header}</span>} {item?.question}
      </span>
      <Button variant="secondary" size="sm" className="qd-command" onClick={onExpand}>
        Expand questions
      </Button>
    </div>
  );
}
