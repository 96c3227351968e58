import { useRef, useState, type FormEvent } from 'react';
import { own } from '../../../../protocol/rules.ts';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { collectAnswers, itemProblem } from '../../../../answers/collect.ts';
import { inputChoices } from '../../../../answers/kinds/input.ts';
import { focusWithoutLayout } from '../../../lib/focus-soon.ts';
import { useSubmitAnswer, type AnswerSurface } from '../api/submit-answer.ts';
import { optionId, otherId } from '../components/dom-ids.ts';
import { draftActions, useDraftsStore } from '../stores/drafts.ts';
import { useCredentialGuard } from './use-credential-guard.ts';

type Options = {
  /** Once an answer is on its way. */
  onDone?: () => void;
  /** A submit found questions without an answer (their ids, in order). */
  onMissing?: (missing: string[]) => void;
};

/**
 * The answer form the dock and the link page share: a submit collects the draft, names what is missing or sends it
 * (api/submit-answer.ts); keys and buttons reach it through the command registry and `requestSubmit()`.
 */
export function useAnswerForm(record: QuestionRecord, surface: AnswerSurface, { onDone, onMissing }: Options = {}) {
  const { answer, skip, busy, problem, notice } = useSubmitAnswer(record, surface, onDone);
  const credentials = useCredentialGuard(record);
  // Missing-answer messages show only after a try, and belong to the record they were for.
  const [attempted, setAttempted] = useState<{ recordId: string; items: string[] }>({ recordId: '', items: [] });
  const formRef = useRef<HTMLFormElement>(null);
  const draftItems = () => own(useDraftsStore.getState().drafts, record.id)?.items;
  // Q5: questions whose value their kind refuses (a number under its minimum); each shows why beside its field.
  const unanswered = (result: ReturnType<typeof collectAnswers>): string[] => {
    const items = draftItems();
    const missing = result.ok ? [] : result.missing;
    return record.questions.filter((q) => missing.includes(q.id) || itemProblem(q, own(items, q.id)) !== null).map((q) => q.id);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const result = collectAnswers(record, draftItems());
    const missing = unanswered(result);
    if (missing.length || !result.ok) {
      setAttempted({ recordId: record.id, items: missing });
      onMissing?.(missing);
      return;
    }
    // W3: Other text that looks like a credential leaves only once the person confirms.
    const { answers } = result;
    credentials.guard(answers, () => answer(answers));
  };

  /** Marks `itemIds` attempted and returns those still without an answer (Next on one step). */
  const check = (itemIds: string[]): string[] => {
    const result = collectAnswers(record, draftItems());
    const missing = unanswered(result).filter((id) => itemIds.includes(id));
    if (missing.length) setAttempted({ recordId: record.id, items: missing });
    return missing;
  };

  /** Picks option `index` of the question holding `target`, else of `fallbackItemId`, and moves focus to it (U3). */
  const pick = (index: number, target: EventTarget | null, fallbackItemId: string) => {
    const holder = target instanceof Element ? target.closest('[data-question-id]')?.getAttribute('data-question-id') : null;
    const item = record.questions.find((q) => q.id === holder) ?? record.questions.find((q) => q.id === fallbackItemId);
    const typed = item?.kind === 'input' ? inputChoices(item) : null;
    if (item && typed) {
      // Q12: a boolean's Yes / No and an enum's values take the number keys as options do.
      const value = typed[index];
      if (value === undefined) return;
      draftActions().optionPicked(record.id, item, value);
      const picked = document.getElementById(optionId(record.id, item.id, index));
      if (picked) focusWithoutLayout(picked);
      return;
    }
    if (item && index === item.options.length) {
      // The number after the last option is the Other card's: it takes focus, the digit is not typed.
      const other = document.getElementById(otherId(record.id, item.id));
      if (other) focusWithoutLayout(other);
      return;
    }
    const option = item?.options[index];
    if (!item || !option) return;
    draftActions().optionPicked(record.id, item, option.label);
    const picked = document.getElementById(optionId(record.id, item.id, index));
    if (picked) focusWithoutLayout(picked);
  };

  return {
    formRef,
    onSubmit,
    submit: () => formRef.current?.requestSubmit(),
    skip,
    busy,
    problem,
    notice,
    check,
    pick,
    attempted: attempted.recordId === record.id ? attempted.items : [],
    credentials,
  };
}
