/**
 * Kinds answered by one of a fixed set of labels (`confirm`: Yes / No; `link`: Done / Decline): a single choice
 * whose check takes only those labels, and whose reply reads the labels' numbers, words and first letters.
 */
import { choiceKind } from './choice.ts';
import type { KindItem, QuestionKind } from './kind.ts';
import { optionFor } from './labels.ts';

/** The labels' own spelling for `text`: its number, its label (any case) or the label's first letter when that is unique. */
function labelFor(labels: readonly string[], text: string): string | undefined {
  const t = text.trim().toLowerCase();
  const byOption = optionFor({ options: labels.map((label) => ({ label })) }, t);
  if (byOption) return byOption;
  const initials = labels.filter((l) => l[0].toLowerCase() === t);
  return initials.length === 1 ? initials[0] : undefined;
}

export function fixedLabelsKind(labels: readonly string[], missing: string): QuestionKind {
  const list = labels.join(' or ');
  return {
    ...choiceKind,
    answer: (_item: KindItem, draft) => {
      const chosen = labels.find((l) => draft.chosen.includes(l));
      if (chosen) return [chosen];
      const typed = draft.other.trim();
      return typed ? [labelFor(labels, typed) ?? typed] : [];
    },
    draftOf: (_item, values) => {
      const chosen = values.map((v) => labelFor(labels, v)).filter((l): l is string => l !== undefined);
      return { chosen: chosen.slice(0, 1), other: '' };
    },
    missingText: () => missing,
    check(_item, values) {
      const named = values.map((v) => labelFor(labels, v));
      if (values.length !== 1 || named[0] === undefined) return { ok: false, problem: `takes one of ${list}` };
      return { ok: true, values: [named[0]] };
    },
    readReply: (_item, text) => (text.trim() ? [labelFor(labels, text) ?? text.trim()] : []),
    readBody: (_item, body) => [labelFor(labels, body) ?? body],
    titleNote: () => '',
    replyHint: (_item, skip) => `Reply with ${labels.map((l, i) => `${i + 1} (${l})`).join(' or ')}${skip}.`,
    severalNote: () => '',
    oneTap: () => labels,
  };
}
