import { createContext, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { GatewayClient, ConnectionState } from '../../client/client.ts';
import type { EventName, EventPayload, HelloOk } from '../../protocol/index.ts';

const GatewayContext = createContext<GatewayClient | null>(null);

export function GatewayProvider({ client, children }: { client: GatewayClient; children: ReactNode }) {
  return <GatewayContext.Provider value={client}>{children}</GatewayContext.Provider>;
}

export function useGateway(): GatewayClient {
  const client = useContext(GatewayContext);
  if (!client) throw new Error('useGateway needs a <GatewayProvider>');
  return client;
}

/** Subscribes to one gateway event for the component's life; the handler may change between renders. */
export function useGatewayEvent<E extends EventName>(event: E, handler: (payload: EventPayload<E>, seq?: number) => void) {
  const client = useGateway();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => client.on(event, (p, s) => ref.current(p, s)), [client, event]);
}

/** Runs on every hello-ok (first connect and each reconnect); `resumed:false` means refetch. */
export function useGatewayHello(handler: (hello: HelloOk) => void) {
  const client = useGateway();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => client.onHello((h) => ref.current(h)), [client]);
}

export function useConnectionState(): ConnectionState {
  const client = useGateway();
  return useSyncExternalStore(
    (notify) => client.onState(notify),
    () => client.state,
  );
}

/** The identity this tab is signed in as, once connected. */
export function useHello(): HelloOk | null {
  const client = useGateway();
  return useSyncExternalStore(
    (notify) => client.onHello(notify),
    () => client.hello,
  );
}
