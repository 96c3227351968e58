/**
 * One socket's life for the client: made from the options (or the platform's WebSocket), its frames read with the
 * protocol checks and handed on by type, and its close reported once with what went wrong, also when the client gives
 * it up without waiting for the closing handshake (a dead peer never completes it).
 */
import type { EventFrame, ResponseFrame, ServerFrame } from '../protocol/index.ts';
import type { FrameChecks, GatewayClientOptions, SocketLike } from './types.ts';

/** How a socket ended: the close, the refusal the gateway sent in answer to connect, and what the socket said. */
export type SocketEnd = {
  code: number;
  reason: string;
  /** The connect request's error frame, when the gateway refused the handshake. */
  refused: { code: string; message: string; retryAfterMs?: number } | null;
  /** What the socket said went wrong (Node's `ws` names it, e.g. "connect ECONNREFUSED 127.0.0.1:7420"; browsers do not). */
  socketError: string | null;
};

/** What a wired socket tells the client, while it is the client's current socket. */
export type SocketListener = {
  /** A frame arrived (any, readable or not): the link is alive. */
  heard(): void;
  event(frame: EventFrame): void;
  hello(payload: unknown): void;
  result(id: string, frame: ResponseFrame): void;
  closed(end: SocketEnd): void;
};

/** Closes a socket at once, however it is doing: `abandon(code, reason)`. */
export type Abandon = (code: number, reason: string) => void;

export function makeSocket(options: GatewayClientOptions, url: string): SocketLike {
  if (options.socket) return options.socket(url);
  const Ctor = (globalThis as { WebSocket?: new (u: string) => SocketLike }).WebSocket;
  if (!Ctor) throw new Error('no WebSocket available: pass `socket` (e.g. from src/client/node.ts)');
  return new Ctor(url);
}

/**
 * Wires `socket`'s handlers; nothing is handed on once `current()` is false. Returns how to give the socket up at once:
 * its handlers are cut and `closed` is told as if it had closed.
 */
export function wireSocket(socket: SocketLike, checks: FrameChecks, current: () => boolean, to: SocketListener): Abandon {
  let refused: SocketEnd['refused'] = null;
  let socketError: string | null = null;
  socket.onmessage = (ev) => {
    if (!current()) return;
    to.heard();
    let frame: ServerFrame | null;
    try {
      frame = checks.frame(JSON.parse(String(ev.data)));
    } catch {
      frame = null;
    }
    if (!frame) return; // a frame this client cannot read is ignored, never fatal
    if (frame.type === 'event') to.event(frame);
    else if (frame.id === '__connect') {
      if (frame.ok) to.hello(frame.payload);
      else refused = frame.error;
    } else if (frame.id !== null) to.result(frame.id, frame);
  };
  socket.onerror = (ev) => {
    // onclose follows; keep what went wrong for the state's lastError.
    const message = (ev as { message?: unknown } | null)?.message;
    if (typeof message === 'string' && message) socketError = message;
  };
  const closed = (ev: { code: number; reason: string }) => {
    if (current()) to.closed({ code: ev.code, reason: ev.reason, refused, socketError });
  };
  socket.onclose = closed;
  socket.onopen = () => {
    /* the gateway speaks first with connect.challenge */
  };
  return (code, reason) => {
    socket.onclose = null;
    socket.onmessage = null;
    try {
      socket.close(code, reason);
    } catch {
      /* already closing */
    }
    closed({ code, reason });
  };
}

/** Closes the client's socket for good: no more frames or closes heard, and a close while connecting is no throw. */
export function shutSocket(socket: SocketLike, code: number, reason: string): void {
  socket.onclose = null;
  socket.onmessage = null;
  // A socket still connecting reports its close as an error: heard here, so Node's `ws` never throws it.
  socket.onerror = () => undefined;
  try {
    socket.close(code, reason);
  } catch {
    /* already closed */
  }
}
