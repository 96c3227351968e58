import WebSocket from 'ws';
import { GatewayClient, type GatewayClientOptions, type SocketLike } from './client.ts';
import { protocolChecks } from './protocol-checks.ts';

/** The shared client in Node, on the `ws` package. */
export function createNodeClient(options: Omit<GatewayClientOptions, 'socket' | 'checks'>): GatewayClient {
  return new GatewayClient({ ...options, checks: protocolChecks, socket: (url) => new WebSocket(url) as unknown as SocketLike });
}
