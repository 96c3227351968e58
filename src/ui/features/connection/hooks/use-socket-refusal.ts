import { useEffect, useState } from 'react';
import type { ConnectionState } from '../../../../client/client.ts';

/**
 * Why the gateway refuses this page's socket (S1 Origin, S3 Host), or null. A browser never sees the status of a
 * refused WebSocket upgrade, so after each failed attempt the page asks the gateway's `/ws` over HTTP for the verdict
 * it would give this origin: 403 and 421 carry the reason, anything else means the socket was not refused.
 */
export function useSocketRefusal(state: ConnectionState): string | null {
  const [reason, setReason] = useState<string | null>(null);
  const failing = state.status === 'reconnecting' && state.attempt > 0;
  useEffect(() => {
    if (state.status === 'connected') setReason(null);
    if (!failing) return;
    const controller = new AbortController();
    void fetch(`/ws?origin=${encodeURIComponent(location.origin)}`, { cache: 'no-store', signal: controller.signal })
      .then(async (res) => setReason(res.status === 403 || res.status === 421 ? (await res.text()).trim() : null))
      .catch(() => undefined);
    return () => controller.abort();
  }, [failing, state.attempt, state.status]);
  return failing ? reason : null;
}
