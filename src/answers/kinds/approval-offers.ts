/**
 * G5/G7/G12: the "Always allow…" offers of an approval the gateway asks, and the grant each one asks for. A person's
 * answer names the offer by its label; `question.resolve` then carries `grant:{scope}` so the grant is made with it.
 * Pure and schema-free (the Control UI's first load, the TUI and the gateway read it alike).
 */
import type { GrantScope } from '../../protocol/policy.ts';
import type { Scope } from '../../protocol/scopes.ts';
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

/**
 * G5/A3: who may make each scope's grant, by any one of these scopes. A session's is anyone's who may answer the
 * question (null); a wider one allows requests in sessions the maker may not see, so it needs an identity that sees
 * and answers every question (everyone: an admin).
 */
export const GRANT_MAKERS: Readonly<Record<GrantScope, readonly Scope[] | null>> = {
  session: null,
  project: ['operator.admin', 'operator.questions'],
  agent: ['operator.admin', 'operator.questions'],
  everyone: ['operator.admin'],
};

/** G5/A3: whether an identity holding `scopes` may make a grant of `scope`. */
export function mayMakeGrant(scopes: Iterable<string> | ReadonlySet<string>, scope: GrantScope): boolean {
  const needed = GRANT_MAKERS[scope];
  if (needed === null) return true;
  const held: ReadonlySet<string> = scopes instanceof Set ? scopes : new Set(scopes);
  return needed.some((s) => held.has(s));
}

/**
 * G5: the item as an identity holding `scopes` is offered it: an approval without the offers whose grant it may not
 * make; any other item (or one it may choose wholly) is the same object. `scopes` null (not yet known) keeps all.
 */
export function withChoosableOffers<I extends Pick<KindItem, 'kind' | 'options'>>(item: I, scopes: Iterable<string> | null): I {
  if (item.kind !== 'approval' || scopes === null) return item;
  const held = new Set<string>(scopes);
  const options = item.options.filter((o) => {
    const scope = grantScopeOf(o.label);
    return scope === null || mayMakeGrant(held, scope);
  });
  return options.length === item.options.length ? item : ({ ...item, options } as I);
}

/** G5: a record as an identity holding `scopes` is offered it (each approval by `withChoosableOffers`); unchanged, the same object. */
export function recordWithChoosableOffers<R extends { questions: readonly KindItem[] }>(record: R, scopes: Iterable<string> | null): R {
  const questions = record.questions.map((q) => withChoosableOffers(q, scopes));
  return questions.every((q, i) => q === record.questions[i]) ? record : ({ ...record, questions } as R);
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
