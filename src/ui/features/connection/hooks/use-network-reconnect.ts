import { useEffect } from 'react';
import { useGateway } from '../../../lib/gateway.tsx';
import { browserCameOnline, browserWentOffline } from '../stores/network-store.ts';

/** U11: going offline counts as a dropped connection; coming back online retries at once instead of waiting out the backoff. */
export function useNetworkReconnect() {
  const client = useGateway();
  useEffect(() => {
    const onOffline = () => {
      browserWentOffline();
      client.dropConnection();
    };
    const onOnline = () => {
      browserCameOnline();
      client.reconnectNow();
    };
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    return () => {
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
    };
  }, [client]);
}
