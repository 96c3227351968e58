import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { RadioGroup, RadioGroupItem } from '../../../components/ui/radio-group.tsx';
import { itemAnswer, type QuestionItemRecord } from '../../../../answers/collect.ts';
import { choosesSeveral } from '../../../../answers/kinds/choice.ts';
import { isOffer } from '../../../../answers/kinds/approval-offers.ts';
import { useDraftActions, useItemDraft } from '../stores/drafts.ts';
import { optionKey } from '../commands.ts';
import { optionId, problemId, questionTextId } from './dom-ids.ts';

/** `locked` while a submit is in flight: choices stay focusable (focus is never dropped) but do not change. */
type Props = { recordId: string; item: QuestionItemRecord; locked: boolean; attempted: boolean };

/** Options as full-width cards (the whole card takes the click; its number key before the label) over radios (single-select) or Radix checkboxes (multi-select), each named by its label (U12). */
export function OptionList({ recordId, item, locked, attempted }: Props) {
  const draft = useItemDraft(recordId, item);
  const { optionPicked } = useDraftActions();
  const multi = choosesSeveral(item);
  const labelledBy = questionTextId(recordId, item.id);
  const describedBy = attempted && itemAnswer(item, draft).length === 0 ? problemId(recordId, item.id) : undefined;
  const pick = (label: string) => {
    if (!locked) optionPicked(recordId, item, label);
  };

  const checkedIndex = multi ? -1 : item.options.findIndex((o) => o.label === draft.chosen[0]);
  const tabStop = Math.max(0, checkedIndex);
  const rows = item.options.map((option, index) => {
    const id = optionId(recordId, item.id, index);
    const descId = option.description ? `${id}-desc` : undefined;
    const key = optionKey(index + 1);
    const control = multi ? (
      <Checkbox
        id={id}
        checked={draft.chosen.includes(option.label)}
        onCheckedChange={() => pick(option.label)}
        aria-describedby={descId}
        aria-keyshortcuts={key}
      />
    ) : (
      <RadioGroupItem id={id} value={option.label} tabbable={index === tabStop} aria-describedby={descId} aria-keyshortcuts={key} />
    );
    return (
      <div className="qd-option" key={option.label} data-checked={draft.chosen.includes(option.label) || undefined}>
        {key && (
          <kbd className="qd-option-key" aria-hidden="true">
            {key}
          </kbd>
        )}
        <span className="qd-option-text">
          <label htmlFor={id} className="qd-option-label">
            {option.label}
          </label>
          {option.description && (
            // G7: an "Always allow…" offer's description is the rule its grant would make, shown as code.
            <span id={descId} className={isOffer(item, option.label) ? 'qd-option-desc qd-option-rule' : 'qd-option-desc'}>
              {option.description}
            </span>
          )}
        </span>
        {control}
      </div>
    );
  });

  if (multi)
    return (
      <div role="group" aria-labelledby={labelledBy} aria-describedby={describedBy} className="qd-options">
        {rows}
      </div>
    );
  return (
    <RadioGroup
      className="qd-options"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      value={draft.chosen[0] ?? null}
      onValueChange={pick}
      readOnly={locked}
      loop
    >
      {rows}
    </RadioGroup>
  );
}
