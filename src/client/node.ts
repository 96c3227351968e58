import WebSocket from 'ws';
import { GatewayClient, type GatewayClientOptions, type SocketLike } from './client.ts';

/** The shared client in Node, on the `ws` package. */
export function createNodeClient(options: Omit<GatewayClientOptions, 'socket'>): GatewayClient {
  return new GatewayClient({ ...options, socket: (url) => new WebSocket(url) as unknown as SocketLike });
}
