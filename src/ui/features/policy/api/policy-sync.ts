import { useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useGateway, useGatewayEvent, useGatewayHello } from '../../../lib/gateway.tsx';
import { policyKey, policyReloadFailed } from './get-policy.ts';

/**
 * G10/G12: keeps the admin's policy fresh from the socket. A reload (or a failed one) and a grant made or revoked
 * read it again; a failed reload's error shows at once, before the read comes back. Events reach admins only.
 */
export function usePolicySync() {
  const qc = useQueryClient();
  const helloSeen = useRef(useGateway().hello !== null);
  useGatewayEvent('policy.updated', ({ error }) => {
    policyReloadFailed(qc, error);
    void qc.invalidateQueries({ queryKey: policyKey });
  });
  useGatewayEvent('policy.grants.updated', () => void qc.invalidateQueries({ queryKey: policyKey }));
  // After a reconnect, read it again: policy.updated is sent live only, so even a resumed connection may have missed
  // one. The first connect's read is the query's own.
  useGatewayHello(() => {
    const reconnect = helloSeen.current;
    helloSeen.current = true;
    if (reconnect) void qc.invalidateQueries({ queryKey: policyKey });
  });
}
