/**
 * Q12 `choice`: the ask_user question (Q2, T1): 2..4 options, one or several (`multiSelect`) chosen, or free text in
 * Other. The only module that tells single from several.
 */
import { readMulti, readSingle, splitMultiBody } from './choice-reading.ts';
import type { ItemDraft, KindItem, QuestionKind } from './kind.ts';
import { authoredLabel } from './labels.ts';
import { SEVERAL_FIELD } from '../../protocol/rules.ts';

/** The item field (on the wire and in the ask_user tool) that makes a `choice` question take several options. */
export { SEVERAL_FIELD };

/** Whether a `choice` question takes several options (checkboxes) rather than one (radios). */
export const choosesSeveral = (item: { readonly multiSelect?: unknown }): boolean => item[SEVERAL_FIELD] === true;

/** The field to spread into a `choice` item: present only when several options may be chosen, as items are stored. */
export const severalField = (several: boolean): { multiSelect?: true } => (several ? { [SEVERAL_FIELD]: true } : {});

/** The field as a parsed item (protocol `QuestionItem`) holds it: always there, `true` or undefined. */
export const parsedSeveralField = (several: boolean): { multiSelect: true | undefined } => ({ [SEVERAL_FIELD]: several ? true : undefined });
const several = choosesSeveral;

export const choiceKind: QuestionKind = {
  pick(item, draft, label) {
    if (!several(item)) return { chosen: [label], other: '' };
    const chosen = draft.chosen.includes(label) ? draft.chosen.filter((l) => l !== label) : [...draft.chosen, label];
    return { ...draft, chosen };
  },
  // On single-select, non-blank Other text deselects the chosen option; text equal to a label stays text (U4, U6).
  type: (item, draft, text) => ({ chosen: !several(item) && text.trim() ? [] : draft.chosen, other: text }),
  answer(item, draft) {
    const other = draft.other.trim();
    const chosen = item.options.map((o) => o.label).filter((label) => draft.chosen.includes(label));
    if (!several(item)) return chosen.length ? [chosen[0]] : other ? [other] : [];
    return other ? [...chosen, other] : chosen;
  },
  draftOf(item, values): ItemDraft {
    const labelOf = (v: string) => item.options.find((o) => o.label.toLowerCase() === v.trim().toLowerCase())?.label;
    const chosen = values.map(labelOf).filter((l): l is string => l !== undefined);
    const other = values.filter((v) => labelOf(v) === undefined).join(', ');
    // Single-select holds a choice or text, never both (U4).
    if (several(item)) return { chosen, other };
    return other ? { chosen: [], other } : { chosen: chosen.slice(0, 1), other: '' };
  },
  missingText: (item) =>
    several(item) ? 'Choose at least one option or type an answer in Other.' : 'Choose an option or type an answer in Other.',
  check(item, values) {
    if (!several(item) && values.length > 1) return { ok: false, problem: 'is single-select and takes one value' };
    return { ok: true, values: Array.from(new Set(values.map((v) => authoredLabel(item, v)))) };
  },
  readReply: (item, text) => (several(item) ? readMulti(item, text) : readSingle(item, text)),
  readBody: (item, body) => (several(item) ? splitMultiBody(item, body) : [body]),
  titleNote: (item) => (several(item) ? ' (choose one or more)' : ''),
  replyHint: (item, skip) =>
    several(item)
      ? `Reply with the numbers or options you choose, separated by commas (like 1, 3), or your own words${skip}.`
      : `Reply with a number, an option or your own words${skip}.`,
  severalNote: (item) => (several(item) ? ', commas between several choices' : ''),
  oneTap: (item) => (several(item) ? null : item.options.map((o) => o.label)),
};
