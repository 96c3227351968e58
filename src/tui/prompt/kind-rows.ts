/**
 * Q12: each kind's control in the terminal prompt, picked from one map: the rows a question offers and what its text
 * entry is called. The compiler lists a new kind here until it has one (STYLE.md "Question kinds").
 */
import type { KindId } from '../../answers/kinds/index.ts';
import { kindIdOf } from '../../answers/kinds/index.ts';
import { choosesSeveral } from '../../answers/kinds/choice.ts';
import { inputChoices } from '../../answers/kinds/input.ts';
import type { QuestionRecord } from '../../protocol/index.ts';

type Item = QuestionRecord['questions'][number];

/** One pickable row: what it shows, and the value a pick hands to the kind. */
export type PromptRow = { label: string; value: string; description?: string };

export type PromptControl = {
  rows(item: Item): PromptRow[];
  /** The row that opens the text entry. */
  entry: string;
  /** V2: whether picking a row toggles its box (Space picks, Enter confirms) rather than taking it and going on. */
  toggles(item: Item): boolean;
};

/** Options over Other… (U4): an approval, a confirm and a link take one. */
const optionsAndOther: PromptControl = {
  rows: (item) => item.options.map((o) => ({ label: o.label, value: o.label, description: o.description })),
  entry: 'Other…',
  toggles: () => false,
};

/** Options over Other…, with boxes when the choice takes several. */
const choiceRows: PromptControl = { ...optionsAndOther, toggles: choosesSeveral };

/** What a boolean's values say on screen. */
const WORDS: Record<string, string> = { true: 'Yes', false: 'No' };

/** A typed field: Yes / No for a boolean, an enum's values, else only the text entry (checked before it is sent). */
const typedInput: PromptControl = {
  rows: (item) => (inputChoices(item) ?? []).map((v) => ({ label: WORDS[v] ?? v, value: v })),
  entry: 'Type an answer…',
  toggles: () => false,
};

export const PROMPT_CONTROLS = {
  choice: choiceRows,
  approval: optionsAndOther,
  confirm: optionsAndOther,
  link: optionsAndOther,
  input: typedInput,
} satisfies Record<KindId, PromptControl>;

export const promptControl = (item: Item): PromptControl => PROMPT_CONTROLS[kindIdOf(item)];
export const promptRows = (item: Item): PromptRow[] => promptControl(item).rows(item);
export const promptToggles = (item: Item): boolean => promptControl(item).toggles(item);
