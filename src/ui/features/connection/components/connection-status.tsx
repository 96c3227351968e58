import { useConnectionState, useGateway } from '../../../lib/gateway.tsx';
import { useNow } from '../../../lib/use-now.ts';
import { Button } from '../../../components/ui/button.tsx';
import { describeConnection } from '../lib/describe-connection.ts';
import { useBrowserOffline } from '../stores/network-store.ts';
import { useNetworkReconnect } from '../hooks/use-network-reconnect.ts';
import { useSocketRefusal } from '../hooks/use-socket-refusal.ts';

/** The connection indicator in the header (U11); it also wires the browser's online/offline events. */
export function ConnectionStatus() {
  const client = useGateway();
  const state = useConnectionState();
  const browserOffline = useBrowserOffline();
  useNetworkReconnect();
  const now = useNow(state.status === 'reconnecting');
  const refused = useSocketRefusal(state);
  const view = describeConnection(state, browserOffline, now, refused);

  return (
    <div className="connection">
      <span className={`connection-dot connection-dot-${view.tone}`} aria-hidden="true" />
      <span role="status" aria-label="Connection" className="connection-label">
        {view.label}
        {/* The countdown is visual only, so the live region does not announce every second. */}
        {view.retryInSeconds !== undefined && <span aria-hidden="true"> in {view.retryInSeconds} s</span>}
      </span>
      {view.label === 'Refused' && (
        <p role="alert" className="connection-refused">
          The gateway refuses this page's connection: {refused}
        </p>
      )}
      {view.canRetry && (
        <Button size="sm" variant="ghost" onClick={() => client.reconnectNow()}>
          Reconnect now
        </Button>
      )}
    </div>
  );
}
