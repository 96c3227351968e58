import type { RouteState } from '../../../../protocol/routing.ts';
import { useHello } from '../../../lib/gateway.tsx';
import { mayAnswer } from '../../../../lib/route-text.ts';

/** Whether this tab's identity may answer a record with this route (E3): notified so far, or an admin; unrouted, anyone. */
export function useMayAnswer(route: RouteState | undefined): boolean {
  const hello = useHello();
  if (!route) return true;
  return mayAnswer(route, hello?.auth.identity, hello?.auth.scopes.includes('operator.admin') === true);
}
