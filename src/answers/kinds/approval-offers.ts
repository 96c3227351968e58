/**
 * G5/G7/G12: the "Always allow…" offers of an approval the gateway asks, and the grant each one asks for. A person's
 * answer names the offer by its label; `question.resolve` then carries `grant:{scope}` so the grant is made with it.
 * Pure and schema-free (the Control UI's first load, the TUI and the gateway read it alike).
 */
import type { GrantScope } from '../../protocol/policy.ts';
import type { Answers } from '../../protocol/index.ts';
import type { KindItem } from './kind.ts';

export const OFFER_SESSION = 'Always allow in this session';
export const OFFER_PROJECT = 'Always allow in this project for 7 days';
export const OFFER_AGENT = 'Always allow for this agent for 7 days';

/** Each offer's label and the scope of the grant it makes, in the order the approval lists them. */
export const APPROVAL_OFFERS: readonly { label: string; scope: Exclude<GrantScope, 'everyone'> }[] = [
  { label: OFFER_SESSION, scope: 'session' },
  { label: OFFER_PROJECT, scope: 'project' },
  { label: OFFER_AGENT, scope: 'agent' },
];

/** The scope of the grant an offer's label asks for (any case, surrounding spaces ignored), or null for any other answer. */
export function grantScopeOf(label: string): GrantScope | null {
  const wanted = label.trim().toLowerCase();
  return APPROVAL_OFFERS.find((o) => o.label.toLowerCase() === wanted)?.scope ?? null;
}

/** Whether an approval item offers `label` as one of its "Always allow…" options. */
export function isOffer(item: Pick<KindItem, 'kind' | 'options'>, label: string): boolean {
  return item.kind === 'approval' && grantScopeOf(label) !== null && item.options.some((o) => o.label === label);
}

/**
 * G12: the grant a resolve asks for: an approval question answered with one of the offers it lists. Anything else
 * (Allow, Deny, typed text, a choice question whose words happen to match) asks for none.
 */
export function grantRequestOf(questions: readonly KindItem[], answers: Answers): { scope: GrantScope } | undefined {
  for (const item of questions) {
    const value = answers[item.id];
    if (value?.length === 1 && isOffer(item, value[0])) return { scope: grantScopeOf(value[0])! };
  }
  return undefined;
}
