import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import type { PolicyGetResult } from '../../../../protocol/policy.ts';
import { useGateway, useHello } from '../../../lib/gateway.tsx';

export const policyKey = ['policy'] as const;

/** G12: whether this identity may read the policy (operator.admin, A5) on a gateway that has it. */
export function mayReadPolicy(client: Pick<GatewayClient, 'hello'>): boolean {
  const hello = client.hello;
  return hello?.auth.scopes.includes('operator.admin') === true && hello.features?.methods.includes('policy.get') === true;
}

/** Fed by `policy.updated` and `policy.grants.updated` (policy-sync.ts); the fetch covers a cold cache. */
export function policyQueryOptions(client: GatewayClient) {
  return queryOptions({ queryKey: policyKey, queryFn: (): Promise<PolicyGetResult> => client.request('policy.get', {}), staleTime: Infinity });
}

/** The policy in force, its grants and the last reload's error; for admins only (others never ask). */
export function usePolicy() {
  const client = useGateway();
  useHello();
  return useQuery({ ...policyQueryOptions(client), enabled: mayReadPolicy(client) });
}

/** G10: why the last reload failed, kept on the cached policy until a reload succeeds. */
export function policyReloadFailed(qc: QueryClient, error: string | undefined) {
  qc.setQueryData<PolicyGetResult>(policyKey, (old) => (old ? { ...old, error } : old));
}

/** G10: the admin's notice while a reload failed and the previous policy stays in force. */
export function usePolicyError(): string | undefined {
  const client = useGateway();
  useHello();
  return useQuery({ ...policyQueryOptions(client), enabled: mayReadPolicy(client), select: (p) => p.error }).data;
}
