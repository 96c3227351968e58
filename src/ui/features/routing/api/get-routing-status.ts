import { useQuery } from '@tanstack/react-query';
import { useGateway } from '../../../lib/gateway.tsx';

export const routingStatusKey = ['routing', 'status'] as const;

/** E12 `routing.status`: each schedule's person now and next, and the open routed questions this identity may see. */
export function useRoutingStatus() {
  const client = useGateway();
  return useQuery({ queryKey: routingStatusKey, queryFn: () => client.request('routing.status', {}), staleTime: 30_000 });
}

/** The On call entry shows only where the gateway routes: a schedule, a routed question or secret request, in its status. */
export function useHasRouting(): boolean {
  const { data } = useRoutingStatus();
  return data !== undefined && (data.schedules.length > 0 || data.questions.length > 0 || (data.secrets?.length ?? 0) > 0);
}

/**
 * E9: one routed question's (or, from `secrets`, secret request's) route in words (who it waits for, who is next, what
 * it never reaches), once the status has loaded.
 */
export function useRouteWords(id: string, list: 'questions' | 'secrets' = 'questions') {
  const { data } = useRoutingStatus();
  return data?.[list]?.find((r) => r.id === id);
}
