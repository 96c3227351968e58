/**
 * Q12 `approval`: may the agent use a tool (G11)? Answered Allow, Deny or Always allow… (when the agent proposes
 * rules); typed text denies, with that text as the agent's message. The decision is read here, once.
 */
import { choiceKind } from './choice.ts';
import type { KindItem, QuestionKind } from './kind.ts';
import { authoredLabel } from './labels.ts';

export const APPROVAL_ALLOW = 'Allow';
export const APPROVAL_DENY = 'Deny';
export const APPROVAL_ALWAYS = 'Always allow';

/** The decision an approval's answer carries: `always` allows and keeps the proposed rules; `message` is typed text. */
export type ApprovalDecision = { behavior: 'allow' | 'always' | 'deny'; message?: string };

export function readApproval(item: KindItem, values: readonly string[]): ApprovalDecision {
  const value = authoredLabel(item, values[0] ?? '');
  if (value === APPROVAL_ALLOW) return { behavior: 'allow' };
  // The option after Allow and Deny keeps the proposed rules, whatever its words (`Always allow`, `Allow edits for this session`).
  const always = item.options.slice(2).find((o) => o.label === value);
  if (always && value !== APPROVAL_ALLOW && value !== APPROVAL_DENY) return { behavior: 'always' };
  if (value === APPROVAL_DENY || value === '') return { behavior: 'deny' };
  return { behavior: 'deny', message: value };
}

export const approvalKind: QuestionKind = {
  ...choiceKind,
  missingText: () => 'Choose Allow or Deny, or type why you deny it.',
  check(item, values) {
    if (values.length !== 1) return { ok: false, problem: 'takes one decision' };
    return { ok: true, values: [authoredLabel(item, values[0])] };
  },
  titleNote: () => '',
  replyHint: (_item, skip) => `Reply with a number or an option, or your own words to deny with them${skip}.`,
  severalNote: () => '',
  oneTap: (item) => item.options.map((o) => o.label),
};
