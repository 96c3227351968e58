import { useEffect, useRef, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { GatewayClient } from '../../client/client.ts';
import { GatewayProvider } from '../lib/gateway.tsx';
import { ComposerSlotProvider, type ComposerSlot } from '../lib/composer-slot.tsx';
import { OutboxProvider } from '../lib/outbox/use-outbox.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { sameOriginSocketUrl } from '../lib/gateway-url.ts';
import { loadProtocolChecks } from '../lib/protocol-checks.ts';
import { retryFailedImports } from '../lib/retrying-import.ts';
import { rememberScopes } from '../lib/granted-scopes.ts';
import { AppShell } from './app-shell.tsx';
import { dockCodeReady } from '../features/questions/index.tsx';

type Props = { token: string; composerSlot?: ComposerSlot; onRejected: (message: string) => void };

/**
 * The client connects once the protocol's checks and the dock's code are in (chunks fetched as the app starts), so
 * nothing the gateway sends arrives before the page can read it and show it.
 */
const loadChecks = () => Promise.all([loadProtocolChecks(), dockCodeReady]).then(([checks]) => checks);

function createClient(token: string): GatewayClient {
  loadChecks().catch(() => {}); // starts the fetch now; the client's own call gets the same modules (or the error)
  return new GatewayClient({ url: sameOriginSocketUrl(), token, client: { name: 'control-ui', mode: 'ui' }, checks: loadChecks });
}

/** One gateway client and one query cache for the signed-in tab, and the providers around the shell. */
export function ConnectedApp({ token, composerSlot, onRejected }: Props) {
  const [client] = useState(() => createClient(token));
  const [queryClient] = useState(createQueryClient);

  // Connected again: code chunks that failed to load while the network was down are fetched again; and what this
  // sign-in may do is kept for this token, so a reload or a new tab shows it before its hello (A5).
  useEffect(
    () =>
      client.onHello((hello) => {
        rememberScopes(client.options.token, hello.auth.scopes);
        retryFailedImports();
      }),
    [client],
  );

  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    // StrictMode's mount, unmount, mount keeps the first socket instead of dropping it half-open.
    if (closeTimer.current !== undefined) {
      clearTimeout(closeTimer.current);
      closeTimer.current = undefined;
    } else {
      client.start().catch(() => {
        // A refused token ends the connection for good (4001); anything else keeps retrying inside the client.
        if (client.state.lastError?.code === 'UNAUTHORIZED') onRejected('The gateway did not accept that token. Paste a current one.');
      });
    }
    return () => {
      closeTimer.current = setTimeout(() => client.close(), 0);
    };
  }, [client, onRejected]);

  return (
    <QueryClientProvider client={queryClient}>
      <GatewayProvider client={client}>
        <OutboxProvider>
          <ComposerSlotProvider slot={composerSlot}>
            <AppShell />
          </ComposerSlotProvider>
        </OutboxProvider>
      </GatewayProvider>
    </QueryClientProvider>
  );
}
