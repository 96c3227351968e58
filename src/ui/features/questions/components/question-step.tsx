import type { QuestionItemRecord } from '../../../../answers/collect.ts';
import { headerId, questionTextId } from './dom-ids.ts';
import { OptionList } from './option-list.tsx';
import { OtherField } from './other-field.tsx';
import { ValidationMessage } from './validation-message.tsx';

type Props = { recordId: string; item: QuestionItemRecord; locked: boolean; attempted: boolean };

/** One question: its header and wording, the options, and Other; a card of its own on narrow screens. */
export function QuestionStep({ recordId, item, locked, attempted }: Props) {
  return (
    <div className="qd-question" role="group" aria-labelledby={headerId(recordId, item.id)} data-question-id={item.id}>
      <div className="qd-question-head">
        <span id={headerId(recordId, item.id)} className="qd-chip">
          {item.header}
        </span>
        {item.multiSelect && <span className="qd-muted">Choose any</span>}
      </div>
      <p id={questionTextId(recordId, item.id)} className="qd-question-text">
        {item.question}
      </p>
      <OptionList recordId={recordId} item={item} locked={locked} attempted={attempted} />
      <OtherField recordId={recordId} item={item} locked={locked} />
      <ValidationMessage recordId={recordId} item={item} shown={attempted} />
    </div>
  );
}
