/** Option labels as people type them and as outcomes name them. */
import type { KindItem } from './kind.ts';

const RECOMMENDED_MARK = /\s*\(recommended\)\s*$/i;
/** A label without its ` (Recommended)` mark: how an outcome names the chosen option (V5, H5). */
export const withoutRecommendedMark = (label: string): string => label.replace(RECOMMENDED_MARK, '');

/** A label as people type it: trimmed, any case, with or without its ` (Recommended)` suffix. */
export const bareLabel = (text: string): string => withoutRecommendedMark(text.trim()).trim().toLowerCase();

/** PT1 for one piece of text: option n, or an option by its label; undefined when it is neither. */
export function optionFor(item: Pick<KindItem, 'options'>, text: string): string | undefined {
  const t = text.trim();
  if (/^\d+$/.test(t)) {
    const n = Number(t);
    return n >= 1 && n <= item.options.length ? item.options[n - 1].label : undefined;
  }
  const bare = bareLabel(t);
  if (!bare) return undefined;
  // A label written whole wins over another read without its mark ("Staging (Recommended)" beside "Staging").
  const exact = item.options.find((o) => o.label.trim().toLowerCase() === t.toLowerCase());
  return exact?.label ?? item.options.find((o) => bareLabel(o.label) === bare)?.label;
}

/** An option's label in its authored spelling when `value` names one (any case), else `value` as typed. */
export function authoredLabel(item: Pick<KindItem, 'options'>, value: string): string {
  return item.options.find((o) => o.label.toLowerCase() === value.toLowerCase())?.label ?? value;
}
