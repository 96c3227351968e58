/**
 * Q12: every question kind in one map (STYLE.md "Question kinds"). A new kind is one module here and one line in
 * `KINDS`; the compiler then lists every surface map (`satisfies Record<KindId, …>`) that lacks it.
 */
import { KIND_IDS, type KindId } from '../../protocol/rules.ts';
import { approvalKind } from './approval.ts';
import { choiceKind } from './choice.ts';
import { confirmKind } from './confirm.ts';
import { inputKind } from './input.ts';
import type { KindItem, QuestionKind } from './kind.ts';
import { linkKind } from './link.ts';

export type { ItemDraft, KindCheck, KindItem, QuestionKind } from './kind.ts';

export type { KindId };

export const KINDS = {
  choice: choiceKind,
  approval: approvalKind,
  confirm: confirmKind,
  input: inputKind,
  link: linkKind,
} as const satisfies Record<KindId, QuestionKind>;

/** The id of an item's kind: `choice` until the item says otherwise. */
export function kindIdOf(item: KindItem): KindId {
  const id: string | undefined = item.kind;
  return KIND_IDS.find((k) => k === id) ?? 'choice';
}

/** The module that answers for an item's kind. */
export function kindOf(item: KindItem): QuestionKind {
  return KINDS[kindIdOf(item)];
}
