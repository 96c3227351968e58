import { useId } from 'react';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { RadioGroup, RadioGroupItem } from '../../../components/ui/radio-group.tsx';
import { itemAnswer, missingAnswerText, type QuestionItemRecord } from '../../../../answers/collect.ts';
import { useDraftActions, useItemDraft } from '../stores/drafts.ts';

type Props = { recordId: string; item: QuestionItemRecord; locked: boolean; attempted: boolean };

/** One question of the link page: options as Radix radios or checkboxes named by their label, and Other (U4, U12). */
export function LinkQuestionItem({ recordId, item, locked, attempted }: Props) {
  const draft = useItemDraft(recordId, item.id);
  const { optionPicked, otherTextChanged } = useDraftActions();
  const multi = item.multiSelect === true;
  const base = useId();
  const headerId = `${base}-header`;
  const textId = `${base}-text`;
  const problemId = `${base}-problem`;
  const missing = attempted && itemAnswer(item, draft).length === 0;
  const pick = (label: string) => {
    if (!locked) optionPicked(recordId, item.id, label, multi);
  };

  const rows = item.options.map((option, index) => {
    const id = `${base}-option-${index}`;
    const descId = option.description ? `${id}-desc` : undefined;
    const control = multi ? (
      <Checkbox id={id} checked={draft.chosen.includes(option.label)} onCheckedChange={() => pick(option.label)} aria-describedby={descId} />
    ) : (
      <RadioGroupItem id={id} value={option.label} aria-describedby={descId} />
    );
    return (
      <div className="ql-option" key={option.label} data-checked={draft.chosen.includes(option.label) || undefined}>
        {control}
        <span className="ql-option-text">
          <label htmlFor={id}>{option.label}</label>
          {option.description && (
            <span id={descId} className="muted">
              {option.description}
            </span>
          )}
        </span>
      </div>
    );
  });

  const describedBy = missing ? problemId : undefined;
  return (
    <fieldset className="ql-question" aria-labelledby={headerId} data-question-id={item.id}>
      <div className="ql-question-head">
        <span id={headerId} className="ql-chip">
          {item.header}
        </span>
        {multi && <span className="muted">Choose any</span>}
      </div>
      <p id={textId} className="ql-question-text">
        {item.question}
      </p>
      {multi ? (
        <div role="group" aria-labelledby={textId} aria-describedby={describedBy} className="ql-options">
          {rows}
        </div>
      ) : (
        <RadioGroup
          className="ql-options"
          aria-labelledby={textId}
          aria-describedby={describedBy}
          value={draft.chosen[0] ?? null}
          onValueChange={pick}
          loop
        >
          {rows}
        </RadioGroup>
      )}
      <label htmlFor={`${base}-other`} className="ql-other-label">
        Other
      </label>
      <textarea
        id={`${base}-other`}
        className="ql-other-input"
        rows={2}
        value={draft.other}
        readOnly={locked}
        placeholder={multi ? 'Add your own answer beside the choices' : 'Or type your own answer'}
        onChange={(e) => otherTextChanged(recordId, item.id, e.target.value, multi)}
      />
      {missing && (
        <p id={problemId} className="inline-error" role="alert">
          {missingAnswerText(item)}
        </p>
      )}
    </fieldset>
  );
}
