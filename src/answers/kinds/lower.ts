/**
 * Q12: a question as a protocol-1 client sees it: every kind a `choice` with the kind's labels, answered by label
 * (the kind's check reads the label back: Yes / No, Done / Decline, Allow / Deny, an input's value typed in Other).
 */
import type { KindItem } from './kind.ts';
import { inputChoices } from './input.ts';

/** Words a protocol-1 client shows for a boolean input's choices; its check reads them back as `true` / `false`. */
const BOOLEAN_LABELS: Record<string, string> = { true: 'Yes', false: 'No' };

export function lowerItem(item: KindItem): KindItem {
  if (item.kind === undefined && item.input === undefined) return item;
  const { kind, input, ...rest } = item;
  if (kind !== 'input') return rest;
  const choices = inputChoices(item) ?? [];
  // A choice has 2..4 options; an input with more values (or none) is answered in Other.
  const options = choices.length >= 2 && choices.length <= 4 ? choices.map((v) => ({ label: BOOLEAN_LABELS[v] ?? v })) : [];
  return { ...rest, options };
}

/** Every `questions` list in `value` (a frame's payload, at any depth) with its items lowered; the same value when none needs it. */
export function lowerQuestionLists(value: unknown): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const lowered = lowerQuestionLists(v);
      changed ||= lowered !== v;
      return lowered;
    });
    return changed ? out : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, v] of Object.entries(value)) {
    const isItems = key === 'questions' && Array.isArray(v) && v.every((i) => typeof i === 'object' && i !== null && 'options' in i);
    const lowered = isItems ? loweredItems(v as KindItem[]) : lowerQuestionLists(v);
    if (lowered !== v) (out ??= { ...(value as Record<string, unknown>) })[key] = lowered;
  }
  return out ?? value;
}

function loweredItems(items: KindItem[]): KindItem[] {
  const out = items.map(lowerItem);
  return out.some((item, i) => item !== items[i]) ? out : items;
}
