import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PolicyGetResult } from '../../../../protocol/policy.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import { policyKey } from './get-policy.ts';

/**
 * G12: Revoke ends a grant (`policy.grant.revoke`). The row stays while the gateway works on it (the button says so)
 * and leaves once it is revoked; the read that `policy.grants.updated` (or the settle) starts has the last word.
 */
export function useRevokeGrant() {
  const client = useGateway();
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['policy', 'revoke'],
    mutationFn: (id: string) => client.request('policy.grant.revoke', { id }),
    onSuccess: (_result, id) => {
      qc.setQueryData<PolicyGetResult>(policyKey, (old) => (old ? { ...old, grants: old.grants.filter((g) => g.id !== id) } : old));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: policyKey }),
  });
}
