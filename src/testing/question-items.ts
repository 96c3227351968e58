/** Bare question items for tests that only need an item's kind: a single-select and a multi-select `choice`. */
import type { KindItem } from '../answers/kinds/index.ts';

const base = (id: string): KindItem => ({ id, header: id, question: id, options: [{ label: 'A' }, { label: 'B' }] });
export const oneOf = (id: string): KindItem => base(id);
export const severalOf = (id: string): KindItem => ({ ...base(id), multiSelect: true });

/**
 * Q2/T3: one question too many, each with faults of its own (as overrides of a valid item), and every path a check of
 * them must name: the tool's validation and the gateway's request alike.
 */
export const FOUR_FAULTY = [
  { id: 'Bad-Id' },
  { id: 'one', options: [{ label: 'Only' }] },
  { id: 'dup', options: [{ label: 'Other' }, { label: 'x'.repeat(65) }] },
  { id: 'dup', options: [{ label: 'Yes' }, { label: 'yes' }] },
];
export const FOUR_FAULTY_PATHS = [
  'questions',
  'questions[0].id',
  'questions[1].options',
  'questions[2].options[0].label',
  'questions[2].options[1].label',
  'questions[3].id',
  'questions[3].options[1].label',
];
