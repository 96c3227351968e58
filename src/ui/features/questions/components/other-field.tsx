import { own } from '../../../../protocol/rules.ts';
import type { QuestionItemRecord } from '../../../../answers/collect.ts';
import { choosesSeveral } from '../../../../answers/kinds/choice.ts';
import { useDraftActions, useDraftsStore } from '../stores/drafts.ts';
import { optionKey } from '../commands.ts';
import { otherId } from './dom-ids.ts';

type Props = { recordId: string; item: QuestionItemRecord; locked: boolean };

/** The last card of the list, with its own number key. Free text on every question (U4): never an authored option, and text equal to a label stays text (U6). */
export function OtherField({ recordId, item, locked }: Props) {
  const text = useDraftsStore((s) => own(own(s.drafts, recordId)?.items, item.id)?.other ?? '');
  const { otherTextChanged } = useDraftActions();
  const id = otherId(recordId, item.id);
  const multi = choosesSeveral(item);
  const key = optionKey(item.options.length + 1);
  // Q12: an approval's typed text denies, and the agent reads it as the reason.
  const placeholder = item.kind === 'approval' ? 'Or deny, telling the agent why' : multi ? 'Add your own answer beside the choices' : 'Or type your own answer';
  return (
    <div className="qd-option qd-other" data-filled={text.trim() !== '' || undefined}>
      {key && (
        <kbd className="qd-option-key" aria-hidden="true">
          {key}
        </kbd>
      )}
      <label htmlFor={id} className="qd-other-label">
        Other
      </label>
      <textarea
        id={id}
        className="qd-other-input"
        rows={1}
        value={text}
        readOnly={locked}
        placeholder={placeholder}
        onChange={(e) => otherTextChanged(recordId, item, e.target.value)}
      />
    </div>
  );
}
