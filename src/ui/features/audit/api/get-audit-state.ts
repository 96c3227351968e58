import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import type { EventPayload } from '../../../../protocol/index.ts';
import { useGateway, useHello } from '../../../lib/gateway.tsx';
import { mayReadAuditState } from '../components/audit-banner.tsx';

/** L7/L8: what admins are told of the audit log: the last self-check, and whether the log is signed at all. */
export type AuditState = { integrity: { ok: boolean; detail?: string }; unsigned: boolean };

export const auditStateKey = ['audit.state'] as const;

/** `audit.checkpoint {}` answers admins the self-check and `unsigned` (L9); `audit.integrity` events keep it fresh. */
export function auditStateQueryOptions(client: GatewayClient) {
  return queryOptions({
    queryKey: auditStateKey,
    queryFn: async (): Promise<AuditState> => {
      const r = await client.request('audit.checkpoint', {});
      return { integrity: r.integrity ?? { ok: true }, unsigned: r.unsigned === true };
    },
    staleTime: Infinity,
  });
}

export function useAuditState(): AuditState | undefined {
  const client = useGateway();
  return useQuery({ ...auditStateQueryOptions(client), enabled: mayReadAuditState(useHello()) }).data;
}

/** L7: a self-check failed, or an admin acknowledged it: shown at once, before any read comes back. */
export function integrityChanged(qc: QueryClient, { ok, detail }: EventPayload<'audit.integrity'>) {
  qc.setQueryData<AuditState>(auditStateKey, (old) => (old ? { ...old, integrity: detail === undefined ? { ok } : { ok, detail } } : old));
}
