/** The `/ws` upgrade: S3 and S1 before the handshake, S2 refusals for what ws and Node refuse by themselves. */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { GatewayLog } from '../infra/logger.ts';
import { answerClientError, clientAddress, endRaw, hostAllowed, hostRefusal, originAllowed, originRefusal, rawRefusal, type ReachPolicy } from './http-security.ts';

/** Hands each accepted socket to `open` with the client's address (through `trustedProxies`). */
export function acceptSockets(
  server: Server,
  wss: WebSocketServer,
  reach: ReachPolicy,
  trustedProxies: Parameters<typeof clientAddress>[2],
  log: GatewayLog,
  open: (ws: WebSocket, socket: Duplex, address: ReturnType<typeof clientAddress>) => void,
): void {
  // S2 on what ws and Node refuse by themselves: a bad handshake (wrong method, version or key), an unreadable request.
  wss.on('wsClientError', (err: Error, socket: Duplex, req: IncomingMessage) => {
    const version = /Sec-WebSocket-Version/.test(err.message) ? { 'sec-websocket-version': '13, 8' } : undefined;
    const status = err.message === 'Invalid HTTP method' ? 405 : 400;
    endRaw(socket, rawRefusal(status, req, `bad WebSocket handshake: ${err.message}`, version));
  });
  server.on('clientError', answerClientError);
  server.on('upgrade', (req, socket: Duplex, head) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/ws') return void socket.end(rawRefusal(404, req, 'not found: the protocol lives at /ws'));
    // S3 before S1: a rebound name is refused whatever page it came from.
    if (!hostAllowed(reach, req.headers.host, req.socket.localPort ?? 0))
      return void socket.end(rawRefusal(421, req, hostRefusal(reach, req.headers.host, req.socket.localPort ?? 0)));
    if (!originAllowed(reach, req.headers.origin, req.headers.host)) {
      log.warn({ origin: req.headers.origin, address: req.socket.remoteAddress }, `refused a WebSocket from origin ${JSON.stringify(req.headers.origin)}: add it to allowedOrigins to let it in`);
      return void socket.end(rawRefusal(403, req, originRefusal(req.headers.origin, req.headers.host)));
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxies);
      open(ws, socket, address);
    });
  });
}
