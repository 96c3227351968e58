import { useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useGateway, useGatewayEvent, useGatewayHello } from '../../../lib/gateway.tsx';
import { auditStateKey, integrityChanged } from './get-audit-state.ts';

/** L7: keeps the admin's view of the audit log fresh: each `audit.integrity` event, and a read again after a reconnect. */
export function useAuditSync() {
  const qc = useQueryClient();
  const helloSeen = useRef(useGateway().hello !== null);
  useGatewayEvent('audit.integrity', (e) => {
    integrityChanged(qc, e);
    void qc.invalidateQueries({ queryKey: auditStateKey });
  });
  // A gateway restarted meanwhile checked itself again (and may be signed or unsigned now).
  useGatewayHello(() => {
    const reconnect = helloSeen.current;
    helloSeen.current = true;
    if (reconnect) void qc.invalidateQueries({ queryKey: auditStateKey });
  });
}
