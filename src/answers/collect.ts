/**
 * Collecting answers from a draft: what a person picked and typed for each question becomes the answers sent (U4, U6),
 * and a discarded answer turns back into a draft (U9). Every answering surface keeps its drafts in this shape.
 */
import { own } from '../protocol/rules.ts';
import type { Answers, QuestionRecord } from '../protocol/index.ts';

export type QuestionItemRecord = QuestionRecord['questions'][number];

/** One question's draft: the chosen labels and the Other text, kept apart so typed text never turns into a choice (U6). */
export type ItemDraft = { chosen: string[]; other: string };
export const EMPTY_ITEM: ItemDraft = Object.freeze({ chosen: Object.freeze([]) as unknown as string[], other: '' });

/** Single-select: the option replaces any choice and the Other text (the last action wins). Multi-select: toggles it. */
export function withOptionPicked(draft: ItemDraft, label: string, multiSelect: boolean): ItemDraft {
  if (!multiSelect) return { chosen: [label], other: '' };
  const chosen = draft.chosen.includes(label) ? draft.chosen.filter((l) => l !== label) : [...draft.chosen, label];
  return { ...draft, chosen };
}

/** On single-select, non-blank Other text deselects the chosen option; text equal to a label stays text (U4, U6). */
export function withOtherText(draft: ItemDraft, text: string, multiSelect: boolean): ItemDraft {
  return { chosen: !multiSelect && text.trim() ? [] : draft.chosen, other: text };
}

/** The values sent for one question: chosen labels in option order, then the trimmed Other text (U4). */
export function itemAnswer(item: QuestionItemRecord, draft: ItemDraft | undefined): string[] {
  const d = draft ?? EMPTY_ITEM;
  const other = d.other.trim();
  const chosen = item.options.map((o) => o.label).filter((label) => d.chosen.includes(label));
  if (!item.multiSelect) return chosen.length ? [chosen[0]] : other ? [other] : [];
  return other ? [...chosen, other] : chosen;
}

/** Answers for the whole prompt, or the ids of the questions still unanswered. */
export function collectAnswers(
  record: Pick<QuestionRecord, 'questions'>,
  drafts: Record<string, ItemDraft> | undefined,
): { ok: true; answers: Answers } | { ok: false; missing: string[] } {
  const answers: Answers = {};
  const missing: string[] = [];
  for (const item of record.questions) {
    const values = itemAnswer(item, own(drafts, item.id));
    if (values.length) answers[item.id] = values;
    else missing.push(item.id);
  }
  return missing.length ? { ok: false, missing } : { ok: true, answers };
}

/** What a question still lacking an answer says once a submit was tried. */
export function missingAnswerText(item: QuestionItemRecord): string {
  return item.multiSelect ? 'Choose at least one option or type an answer in Other.' : 'Choose an option or type an answer in Other.';
}

/** The draft that gives back `answers`: option labels become choices again, anything else Other text (U9 Discard). */
export function draftFromAnswers(record: Pick<QuestionRecord, 'questions'>, answers: Answers): Record<string, ItemDraft> {
  const items: Record<string, ItemDraft> = {};
  for (const item of record.questions) {
    const values = own(answers, item.id) ?? [];
    const labelOf = (v: string) => item.options.find((o) => o.label.toLowerCase() === v.trim().toLowerCase())?.label;
    const chosen = values.map(labelOf).filter((l): l is string => l !== undefined);
    const other = values.filter((v) => labelOf(v) === undefined).join(', ');
    // Single-select holds a choice or text, never both (U4).
    items[item.id] = item.multiSelect ? { chosen, other } : other ? { chosen: [], other } : { chosen: chosen.slice(0, 1), other: '' };
  }
  return items;
}
