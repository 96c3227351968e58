import type { InputSpec } from '../../../../protocol/rules.ts';
import { itemProblem } from '../../../../answers/collect.ts';
import { inputChoices, inputWanted } from '../../../../answers/kinds/input.ts';
import { useDraftActions, useItemDraft } from '../stores/drafts.ts';
import type { KindControlProps } from './kind-controls.tsx';
import { optionId, otherId, problemId, questionTextId } from './dom-ids.ts';

/** The browser's own field for each value type, so a phone shows the right keyboard and a date its picker. */
const FIELD_TYPES: Record<Exclude<InputSpec['type'], 'boolean'>, string> = {
  string: 'text',
  number: 'number',
  integer: 'number',
  date: 'date',
  'date-time': 'text',
  email: 'email',
  uri: 'url',
};

/** What a boolean's values say on screen. */
const WORDS: Record<string, string> = { true: 'Yes', false: 'No' };

/** Q12: an `input` question's control: Yes / No for a boolean, a list for an enum, else the typed field with its bounds. */
export function TypedInput({ recordId, item, locked, attempted }: KindControlProps) {
  const draft = useItemDraft(recordId, item);
  const { otherTextChanged } = useDraftActions();
  const spec = item.input ?? { type: 'string' };
  const labelledBy = questionTextId(recordId, item.id);
  const choices = inputChoices(item);
  if (choices) return <TypedChoices recordId={recordId} item={item} locked={locked} choices={choices} labelledBy={labelledBy} />;
  // Q5: the kind's own check, shown beside the field once a submit was tried; a blank field is ValidationMessage's.
  const problem = attempted ? itemProblem(item, draft) : null;
  const id = otherId(recordId, item.id);
  const numeric = spec.type === 'number' || spec.type === 'integer';
  return (
    <div className="qd-option qd-other qd-typed" data-filled={draft.other.trim() !== '' || undefined} data-invalid={problem ? true : undefined}>
      <input
        id={id}
        className="qd-other-input"
        type={FIELD_TYPES[spec.type === 'boolean' ? 'string' : spec.type]}
        aria-labelledby={labelledBy}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId(recordId, item.id) : undefined}
        value={draft.other}
        readOnly={locked}
        min={numeric ? spec.minimum : undefined}
        max={numeric ? spec.maximum : undefined}
        step={spec.type === 'integer' ? 1 : spec.type === 'number' ? 'any' : undefined}
        minLength={spec.minLength}
        maxLength={spec.maxLength}
        placeholder={`Enter ${inputWanted(item)}`}
        onChange={(e) => otherTextChanged(recordId, item, e.target.value)}
      />
      {problem && (
        <p id={problemId(recordId, item.id)} className="qd-problem" role="alert">
          {item.header || 'This answer'} {problem}.
        </p>
      )}
    </div>
  );
}

type ChoicesProps = { recordId: string; item: KindControlProps['item']; locked: boolean; choices: readonly string[]; labelledBy: string };

/** A boolean's Yes / No or an enum's values as radios; an optional one can be cleared by choosing it again. */
function TypedChoices({ recordId, item, locked, choices, labelledBy }: ChoicesProps) {
  const draft = useItemDraft(recordId, item);
  const { optionPicked, otherTextChanged } = useDraftActions();
  const optional = item.input?.required === false;
  return (
    <div role="radiogroup" aria-labelledby={labelledBy} className="qd-options">
      {choices.map((value, index) => {
        const checked = draft.chosen[0] === value;
        const id = optionId(recordId, item.id, index);
        return (
          <div key={value} className="qd-option" data-checked={checked || undefined}>
            <label htmlFor={id} className="qd-option-label">
              {WORDS[value] ?? value}
            </label>
            <input
              id={id}
              type="radio"
              name={otherId(recordId, item.id)}
              value={value}
              checked={checked}
              disabled={locked}
              onChange={() => optionPicked(recordId, item, value)}
              onClick={() => {
                if (checked && optional) otherTextChanged(recordId, item, '');
              }}
            />
          </div>
        );
      })}
    </div>
  );
}
