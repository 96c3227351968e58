import type { Scope } from '../../protocol/index.ts';

/** A5: whether an identity holding `held` may call a method that needs one of `needed` (the method's own scopes). */
export function holdsAnyOf(held: readonly Scope[], needed: readonly Scope[]): boolean {
  return held.some((s) => needed.includes(s));
}
