/** Bare question items for tests that only need an item's kind: a single-select and a multi-select `choice`. */
import type { KindItem } from '../answers/kinds/index.ts';

const base = (id: string): KindItem => ({ id, header: id, question: id, options: [{ label: 'A' }, { label: 'B' }] });
export const oneOf = (id: string): KindItem => base(id);
export const severalOf = (id: string): KindItem => ({ ...base(id), multiSelect: true });
