import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PolicyGetResult } from '../../../../protocol/policy.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import { policyKey } from './get-policy.ts';

/**
 * G12: Revoke ends a grant (`policy.grant.revoke`). The row leaves at once; a refusal puts it back, and the read
 * that `policy.grants.updated` (or the settle) starts has the last word.
 */
export function useRevokeGrant() {
  const client = useGateway();
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['policy', 'revoke'],
    mutationFn: (id: string) => client.request('policy.grant.revoke', { id }),
    onMutate: async (id) => {
      await qc.cancelQueries({ queryKey: policyKey });
      const before = qc.getQueryData<PolicyGetResult>(policyKey);
      qc.setQueryData<PolicyGetResult>(policyKey, (old) => (old ? { ...old, grants: old.grants.filter((g) => g.id !== id) } : old));
      return { before };
    },
    onError: (_error, _id, context) => {
      if (context?.before) qc.setQueryData(policyKey, context.before);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: policyKey }),
  });
}
