import type { QuestionItemRecord } from '../../../../answers/collect.ts';
import { choosesSeveral } from '../../../../answers/kinds/choice.ts';
import { kindIdOf } from '../../../../answers/kinds/index.ts';
import { headerId, questionTextId } from './dom-ids.ts';
import { HeaderText } from './header-text.tsx';
import { OpenLink } from './open-link.tsx';
import { QuestionDetail } from './question-detail.tsx';
import { KIND_CONTROLS } from './kind-controls.tsx';
import { ValidationMessage } from './validation-message.tsx';

type Props = { recordId: string; item: QuestionItemRecord; locked: boolean; attempted: boolean; /** The link page shows a detail whole (X2). */ wholeDetail?: boolean };

/** One question: its header and wording, the options, and Other; a card of its own on narrow screens. */
export function QuestionStep({ recordId, item, locked, attempted, wholeDetail }: Props) {
  const Control = KIND_CONTROLS[kindIdOf(item)];
  return (
    <div className="qd-question" role="group" aria-labelledby={headerId(recordId, item.id)} data-question-id={item.id}>
      <div className="qd-question-head">
        <span id={headerId(recordId, item.id)} className="qd-chip">
          <HeaderText header={item.header} whole={item.question} />
        </span>
        {choosesSeveral(item) && <span className="qd-muted">Choose one or more</span>}
      </div>
      {/* elementtiming: the browser reports the frame that first shows the question's wording (Element Timing). */}
      <p id={questionTextId(recordId, item.id)} className="qd-question-text" {...{ elementtiming: 'question-text' }}>
        {item.question}
      </p>
      <QuestionDetail detail={item.detail} whole={wholeDetail} />
      <OpenLink url={item.url} />
      <Control recordId={recordId} item={item} locked={locked} attempted={attempted} />
      <ValidationMessage recordId={recordId} item={item} shown={attempted} />
    </div>
  );
}
