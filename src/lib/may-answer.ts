import type { RouteState } from '../protocol/routing.ts';

/** E3: whether `identity` may answer a routed question (or provide a routed secret): notified so far, or an admin. */
export function mayAnswer(route: Pick<RouteState, 'eligible'>, identity: string | undefined, admin: boolean): boolean {
  return admin || (identity !== undefined && route.eligible.includes(identity));
}
