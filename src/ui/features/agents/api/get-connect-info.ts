import { useQuery } from '@tanstack/react-query';
import type { Result } from '../../../../protocol/index.ts';
import { useGateway } from '../../../lib/gateway.tsx';

export type ConnectInfo = Result<'agents.connectInfo'>;
export const connectInfoKey = ['agents', 'connect-info'] as const;

/** U18: the agent identities with their tokens, for operator.admin only (others would be refused, A5). */
export function useConnectInfo() {
  const client = useGateway();
  const admin = client.hello?.auth.scopes.includes('operator.admin') === true;
  return useQuery({
    queryKey: connectInfoKey,
    queryFn: () => client.request('agents.connectInfo', {}),
    enabled: admin && client.hello?.features.methods.includes('agents.connectInfo') === true,
    staleTime: 10_000,
  });
}

/** Whether the demo agent of `askdock start` is connected as `agentId`; only admins learn it (A5), others get false. */
export function useIsDemoAgent(agentId: string | null | undefined): boolean {
  const info = useConnectInfo();
  return agentId != null && info.data?.agents.some((a) => a.id === agentId && a.demo) === true;
}
