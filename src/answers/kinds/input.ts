/**
 * Q12 `input`: a typed field without options (an MCP elicitation's field): a string, number, integer, boolean, date,
 * date-time, email or uri, with its bounds; the gateway checks the value (input-rules.ts).
 */
import type { InputSpec } from '../../protocol/rules.ts';
import { checkInput } from './input-rules.ts';
import type { KindItem, QuestionKind } from './kind.ts';

const specOf = (item: KindItem): InputSpec => item.input ?? { type: 'string' };

/** The values a person can pick rather than type: an enum's, or yes / no for a boolean. */
export function inputChoices(item: KindItem): readonly string[] | null {
  const spec = specOf(item);
  if (spec.enum?.length) return spec.enum;
  return spec.type === 'boolean' ? ['true', 'false'] : null;
}

/** Q12: an input the asker marked `required: false` may be sent without a value. */
export const mayStayEmpty = (item: KindItem): boolean => item.kind === 'input' && specOf(item).required === false;

/** X5: the asker's `default` (an elicitation field's) as the value the field starts with, prefilled and editable; or none. */
export function inputPreset(item: KindItem): string | undefined {
  if (item.kind !== 'input') return undefined;
  const given = specOf(item).default;
  return given === undefined || given === '' ? undefined : String(given);
}

const HINTS: Record<InputSpec['type'], string> = {
  string: 'your answer',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'yes or no',
  date: 'a date like 2026-12-31',
  'date-time': 'a date and time like 2026-12-31T09:30:00Z',
  email: 'an email address',
  uri: 'an address like https://example.com',
};

/** The asker's suggested value in words (X5: an elicitation field's `default`), or nothing. */
function suggested(spec: InputSpec): string {
  if (spec.default === undefined || spec.default === '') return '';
  const value = typeof spec.default === 'boolean' ? (spec.default ? 'yes' : 'no') : String(spec.default);
  return ` (suggested: ${value})`;
}

/** What the field takes, in words: `a number from 1 to 10`, with the suggested value when the asker gave one. */
export function inputWanted(item: KindItem): string {
  const spec = specOf(item);
  if (spec.enum?.length) return `one of ${spec.enum.join(', ')}${suggested(spec)}`;
  const from = spec.minimum !== undefined ? ` from ${spec.minimum}` : '';
  const to = spec.maximum !== undefined ? `${from ? ' to' : ' up to'} ${spec.maximum}` : '';
  return `${HINTS[spec.type]}${from}${to}${suggested(spec)}`;
}

export const inputKind: QuestionKind = {
  pick: (_item, _draft, value) => ({ chosen: [value], other: '' }),
  type: (_item, _draft, text) => ({ chosen: [], other: text }),
  answer: (_item, draft) => (draft.chosen.length ? [draft.chosen[0]] : draft.other.trim() ? [draft.other.trim()] : []),
  draftOf: (item, values) => {
    const value = values[0] ?? '';
    return inputChoices(item)?.includes(value) ? { chosen: [value], other: '' } : { chosen: [], other: value };
  },
  missingText: (item) => `Enter ${inputWanted(item)}.`,
  check(item, values) {
    if (values.length !== 1) return { ok: false, problem: 'takes one value' };
    const verdict = checkInput(specOf(item), values[0]);
    return verdict.ok ? { ok: true, values: [verdict.value] } : verdict;
  },
  readReply: (_item, text) => (text.trim() ? [text.trim()] : []),
  readBody: (_item, body) => [body],
  titleNote: () => '',
  replyHint: (item, skip) => `Reply with ${inputWanted(item)}${skip}.`,
  severalNote: () => '',
  oneTap: (item) => (specOf(item).type === 'boolean' || specOf(item).enum?.length ? inputChoices(item) : null),
};
