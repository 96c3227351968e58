import { Button } from '../../../components/ui/button.tsx';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useDraftStep } from '../stores/drafts.ts';
import { OwnPageLink } from './own-page-link.tsx';
import { TimeLeft } from './time-left.tsx';

type Props = { requests: QuestionRecord[]; current: QuestionRecord; onExpand: () => void };

/**
 * The slim bar over the composer: the unanswered count, the current question and a blocking question's time left stay
 * in sight (U1, U7, U8). On a narrow screen its actions take a second line, so the question keeps the first.
 */
export function CollapsedBar({ requests, current, onExpand }: Props) {
  const step = Math.min(useDraftStep(current.id), current.questions.length - 1);
  const item = current.questions[step];
  return (
    <div className="qd-collapsed">
      <span className="qd-badge">{requests.length} pending</span>
      <span className="qd-collapsed-text" title={item?.question}>
        {item && <span className="qd-chip">{item.header}</span>} {item?.question}
      </span>
      <span className="qd-collapsed-actions">
        {current.mode === 'blocking' && current.expiresAtMs !== null && <TimeLeft expiresAtMs={current.expiresAtMs} />}
        <OwnPageLink recordId={current.id} />
        <Button variant="secondary" size="sm" className="qd-command" onClick={onExpand}>
          Expand questions
        </Button>
      </span>
    </div>
  );
}

/** A secret request waiting while the person answers a question first: its name, and the way back to its prompt (W4). */
export function SecretWaiting({ name, onShow }: { name: string; onShow: () => void }) {
  return (
    <div className="qd-collapsed qd-secret-waiting">
      <span className="qd-secret-badge">Secret</span>
      <span className="qd-collapsed-text">
        <code className="qd-secret-name">{name}</code> is waiting for you
      </span>
      <span className="qd-collapsed-actions">
        <Button variant="secondary" size="sm" className="qd-command" onClick={onShow}>
          Enter secret
        </Button>
      </span>
    </div>
  );
}
