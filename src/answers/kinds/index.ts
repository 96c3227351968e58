/**
 * Q12: every question kind in one map (STYLE.md "Question kinds"). A new kind is one module here and one line in
 * `KINDS`; the compiler then lists every surface map (`satisfies Record<KindId, …>`) that lacks it.
 */
import { choiceKind } from './choice.ts';
import type { KindItem, QuestionKind } from './kind.ts';

export type { ItemDraft, KindCheck, KindItem, QuestionKind } from './kind.ts';

export const KINDS = {
  choice: choiceKind,
} as const satisfies Record<string, QuestionKind>;

export type KindId = keyof typeof KINDS;

/** The id of an item's kind: `choice` until the item says otherwise. */
export function kindIdOf(item: KindItem): KindId {
  const id = (item as { kind?: string }).kind;
  return id !== undefined && Object.hasOwn(KINDS, id) ? (id as KindId) : 'choice';
}

/** The module that answers for an item's kind. */
export function kindOf(item: KindItem): QuestionKind {
  return KINDS[kindIdOf(item)];
}
