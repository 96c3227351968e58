import { collectAnswers, itemProblem, startingDraft, withOptionPicked, withOtherText, type ItemDraft } from '../../answers/collect.ts';
import { detectCredentialIn, credentialWarning } from '../../answers/credentials.ts';
import type { Answers, QuestionRecord } from '../../protocol/index.ts';
import { promptRows, promptToggles } from './kind-rows.ts';

/** One prompt's draft in the terminal: where the person is, what they picked and typed (kept for the process's life, V6). */
export type PromptDraft = {
  step: number;
  /** The highlighted row: options 0..n-1, then Other… (n), then Skip (n+1). */
  cursor: number;
  items: Record<string, ItemDraft>;
  editingOther: boolean;
  /** W3: answers held back until the person confirms that the Other text is no credential. */
  confirm?: { answers: Answers; warning: string };
  problem?: string;
};

/** A prompt not yet touched; given its record, the cursor starts on a preset choice (X5: a boolean's default). */
export function emptyDraft(record?: Pick<QuestionRecord, 'questions'>): PromptDraft {
  const draft: PromptDraft = { step: 0, cursor: 0, items: {}, editingOther: false };
  return record?.questions.length ? { ...draft, cursor: cursorAt(record, draft, 0) } : draft;
}

/** The keys a prompt reacts to, as Ink reports them. */
export type PromptKey = {
  input: string;
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  return?: boolean;
  escape?: boolean;
};

export type PromptEffect =
  | { kind: 'submit'; answers: Answers }
  | { kind: 'skip' }
  | { kind: 'close' }
  | { kind: 'switch'; by: -1 | 1 }
  /** E4: `a`, "I'm on it" for a routed question. */
  | { kind: 'ack' };

export type PromptStep = { draft: PromptDraft; effect?: PromptEffect };

type Record_ = Pick<QuestionRecord, 'questions'> & { route?: QuestionRecord['route'] };
type Item = QuestionRecord['questions'][number];

/** A question's draft: what was picked or typed, else its preset value (X5). */
export const itemDraft = (draft: PromptDraft, item: Item): ItemDraft => draft.items[item.id] ?? startingDraft(item);

/** Rows of the current question: its options, then Other… and Skip. */
export const rowCount = (record: Record_, draft: PromptDraft) => promptRows(record.questions[draft.step]).length + 2;

/** The row to highlight on arriving at a question: its first chosen option, else the first row. */
function cursorAt(record: Record_, draft: PromptDraft, step: number): number {
  const item = record.questions[step];
  const chosen = itemDraft(draft, item).chosen;
  return Math.max(0, promptRows(item).findIndex((o) => chosen.includes(o.value)));
}

/** Goes to the next question, or on the last one submits (W3: after a confirmation when Other text looks like a credential). */
function advance(record: Record_, draft: PromptDraft): PromptStep {
  const last = record.questions.length - 1;
  if (draft.step < last) return { draft: { ...draft, step: draft.step + 1, cursor: cursorAt(record, draft, draft.step + 1), editingOther: false, problem: undefined } };
  const collected = collectAnswers(record, draft.items);
  if (!collected.ok) {
    const step = record.questions.findIndex((q) => q.id === collected.missing[0]);
    const q = record.questions[step];
    return { draft: { ...draft, step, cursor: 0, editingOther: false, problem: `${q.header} needs an answer: pick an option or type one in Other…` } };
  }
  // Q5: a value its kind refuses is named at its question before anything is sent.
  const refused = record.questions.findIndex((q) => itemProblem(q, itemDraft(draft, q)) !== null);
  if (refused >= 0) {
    const q = record.questions[refused];
    return { draft: { ...draft, step: refused, cursor: 0, editingOther: false, problem: `${q.header} ${itemProblem(q, itemDraft(draft, q))}.` } };
  }
  const typed = record.questions.map((q) => itemDraft(draft, q).other);
  const match = detectCredentialIn(typed);
  if (match) return { draft: { ...draft, editingOther: false, confirm: { answers: collected.answers, warning: credentialWarning(match) } } };
  return { draft: { ...draft, editingOther: false, problem: undefined }, effect: { kind: 'submit', answers: collected.answers } };
}

function pick(record: Record_, draft: PromptDraft, index: number): PromptStep {
  const item = record.questions[draft.step];
  const label = promptRows(item)[index]?.value;
  if (label === undefined) return { draft };
  const items = { ...draft.items, [item.id]: withOptionPicked(item, itemDraft(draft, item), label) };
  const next = { ...draft, items, cursor: index, problem: undefined };
  // V2: single-select goes on at once; multi-select toggles and waits for Enter.
  return promptToggles(item) ? { draft: next } : advance(record, next);
}

/** V2 keys on the options: ↑/↓ and Enter, 1..9, Space (multi-select), Esc, ← back, `[` / `]` between requests. */
export function promptKey(record: Record_, draft: PromptDraft, key: PromptKey): PromptStep {
  if (draft.confirm) {
    if (key.return || key.input.toLowerCase() === 'y') return { draft: { ...draft, confirm: undefined }, effect: { kind: 'submit', answers: draft.confirm.answers } };
    if (key.escape || key.input.toLowerCase() === 'n') return { draft: { ...draft, confirm: undefined, editingOther: true } };
    return { draft };
  }
  const item = record.questions[draft.step];
  const rows = rowCount(record, draft);
  if (key.escape) return { draft, effect: { kind: 'close' } };
  if (key.upArrow) return { draft: { ...draft, cursor: (draft.cursor + rows - 1) % rows } };
  if (key.downArrow) return { draft: { ...draft, cursor: (draft.cursor + 1) % rows } };
  if (key.leftArrow && draft.step > 0) return { draft: { ...draft, step: draft.step - 1, cursor: cursorAt(record, draft, draft.step - 1), problem: undefined } };
  if (key.input === '[') return { draft, effect: { kind: 'switch', by: -1 } };
  if (key.input === ']') return { draft, effect: { kind: 'switch', by: 1 } };
  const n = promptRows(item).length;
  // Q12: a typed field with nothing to pick takes what is typed, digits too, in its entry.
  if (n === 0 && key.input && !key.return && !/[\x00-\x1f]/.test(key.input))
    return { draft: { ...otherChanged(record, draft, itemDraft(draft, item).other + key.input), editingOther: true, problem: undefined } };
  if (/^[1-9]$/.test(key.input)) return pick(record, draft, Number(key.input) - 1);
  if (key.input === 'a' && record.route) return { draft, effect: { kind: 'ack' } };
  const onOption = draft.cursor < n;
  if (key.input === ' ' && promptToggles(item) && onOption) return pick(record, draft, draft.cursor);
  if (!key.return) return { draft };
  if (draft.cursor === n) return { draft: { ...draft, editingOther: true, problem: undefined } };
  if (draft.cursor === n + 1) return { draft, effect: { kind: 'skip' } };
  if (!promptToggles(item)) return pick(record, draft, draft.cursor);
  // Multi-select: Enter confirms; with nothing chosen yet it takes the highlighted option.
  const d = itemDraft(draft, item);
  const taken = d.chosen.length || d.other.trim() ? draft : pick(record, draft, draft.cursor).draft;
  return advance(record, taken);
}

/** The Other field's text as typed (kept in the draft, U6). */
export function otherChanged(record: Record_, draft: PromptDraft, text: string): PromptDraft {
  const item = record.questions[draft.step];
  return { ...draft, items: { ...draft.items, [item.id]: withOtherText(item, itemDraft(draft, item), text) } };
}

/** V2: Enter in Other sends its text as the answer (goes on like a taken option); blank text just goes back to the options. */
export function otherSubmitted(record: Record_, draft: PromptDraft): PromptStep {
  const item = record.questions[draft.step];
  if (!itemDraft(draft, item).other.trim()) return { draft: { ...draft, editingOther: false } };
  // Q5: a value the kind refuses stays in the field with the rule it breaks, and nothing is sent.
  const problem = itemProblem(item, itemDraft(draft, item));
  if (problem) return { draft: { ...draft, problem: `${item.header} ${problem}.` } };
  return advance(record, { ...draft, editingOther: false });
}

/** Esc in Other: back to the options, the text kept. */
export const otherLeft = (draft: PromptDraft): PromptDraft => ({ ...draft, editingOther: false });

/** The room the prompt's one-line key hint has on an 80-column terminal: its rounded border and padding take 4. */
export const HINT_WIDTH_AT_80 = 76;

/**
 * The prompt's key hint, one line at 80 columns (V2): each key said once. Single-select takes with Enter; multi-select
 * toggles with Space or a number and Enter is done. `← back` only past the first question, `[ ]` only with several requests.
 */
export function promptHint(multi: boolean, step: number, requests: number): string {
  const parts = [
    '↑↓ move',
    multi ? 'Space/1-9 toggle' : '1-9 pick',
    multi ? 'Enter done' : 'Enter take',
    step > 0 ? '← back' : null,
    'Esc composer',
    requests > 1 ? '[ ] switch' : null,
  ];
  return parts.filter((p) => p !== null).join(' · ');
}
