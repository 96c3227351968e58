/**
 * Collecting answers from a draft: what a person picked and typed for each question becomes the answers sent (U4, U6),
 * and a discarded answer turns back into a draft (U9). Every answering surface keeps its drafts in this shape.
 */
import { own } from '../protocol/rules.ts';
import type { Answers, QuestionRecord } from '../protocol/index.ts';
import { kindOf, type ItemDraft } from './kinds/index.ts';
import { inputPreset, mayStayEmpty } from './kinds/input.ts';

export type QuestionItemRecord = QuestionRecord['questions'][number];
export type { ItemDraft };

export const EMPTY_ITEM: ItemDraft = Object.freeze({ chosen: Object.freeze([]) as unknown as string[], other: '' });

const STARTS = new WeakMap<QuestionItemRecord, ItemDraft>();

/**
 * X5: a question's draft before anything is picked or typed: its preset value (an input's `default`) chosen or
 * typed in, else nothing. The same object each time for the same question, so a store selector can return it.
 */
export function startingDraft(item: QuestionItemRecord): ItemDraft {
  const preset = inputPreset(item);
  if (preset === undefined) return EMPTY_ITEM;
  let draft = STARTS.get(item);
  if (!draft) {
    draft = kindOf(item).draftOf(item, [preset]);
    STARTS.set(item, draft);
  }
  return draft;
}

/** Picking an option, as the question's kind reads it (U4: single choices replace, several toggle). */
export function withOptionPicked(item: QuestionItemRecord, draft: ItemDraft, label: string): ItemDraft {
  return kindOf(item).pick(item, draft, label);
}

/** Typing free text, as the question's kind reads it (U4, U6). */
export function withOtherText(item: QuestionItemRecord, draft: ItemDraft, text: string): ItemDraft {
  return kindOf(item).type(item, draft, text);
}

/** The values sent for one question (U4). */
export function itemAnswer(item: QuestionItemRecord, draft: ItemDraft | undefined): string[] {
  return kindOf(item).answer(item, draft ?? startingDraft(item));
}

/** Q5: what the question's kind refuses in a non-blank draft (`must be at least 1 (minimum)`), or null. */
export function itemProblem(item: QuestionItemRecord, draft: ItemDraft | undefined): string | null {
  const values = itemAnswer(item, draft);
  if (!values.length) return null;
  const verdict = kindOf(item).check(item, values);
  return verdict.ok ? null : verdict.problem;
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
    else if (!mayStayEmpty(item)) missing.push(item.id);
  }
  return missing.length ? { ok: false, missing } : { ok: true, answers };
}

/** What a question still lacking an answer says once a submit was tried. */
export function missingAnswerText(item: QuestionItemRecord): string {
  return kindOf(item).missingText(item);
}

/** The draft that gives back `answers`: option labels become choices again, anything else typed text (U9 Discard). */
export function draftFromAnswers(record: Pick<QuestionRecord, 'questions'>, answers: Answers): Record<string, ItemDraft> {
  const items: Record<string, ItemDraft> = {};
  for (const item of record.questions) items[item.id] = kindOf(item).draftOf(item, own(answers, item.id) ?? []);
  return items;
}
