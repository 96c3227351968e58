import type { RouteState } from '../../../../protocol/routing.ts';
import { useRouteWords } from '../api/get-routing-status.ts';
import { RouteLine } from './route-line.tsx';

/**
 * E9 for K1: a routed secret request's header row in routing.status's words, as a question's ("For Ana · to ops in
 * 4:12"); until they come, or from a gateway without them, the people its route names.
 */
export function SecretRouteLine({ id, route }: { id: string; route: RouteState }) {
  return <RouteLine route={route} words={useRouteWords(id, 'secrets')} />;
}
