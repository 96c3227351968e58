import { useQueryClient } from '@tanstack/react-query';
import { useGatewayEvent, useGatewayHello } from '../../../lib/gateway.tsx';
import { policyKey, policyReloadFailed } from './get-policy.ts';

/**
 * G10/G12: keeps the admin's policy fresh from the socket. A reload (or a failed one) and a grant made or revoked
 * read it again; a failed reload's error shows at once, before the read comes back. Events reach admins only.
 */
export function usePolicySync() {
  const qc = useQueryClient();
  useGatewayEvent('policy.updated', ({ error }) => {
    policyReloadFailed(qc, error);
    void qc.invalidateQueries({ queryKey: policyKey });
  });
  useGatewayEvent('policy.grants.updated', () => void qc.invalidateQueries({ queryKey: policyKey }));
  // Events missed while away: read it again after every reconnect.
  useGatewayHello(() => void qc.invalidateQueries({ queryKey: policyKey }));
}
