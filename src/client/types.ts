import type { AnyEvent, ClientMode, EventFrame, HelloOk, MethodName, Result, ServerFrame } from '../protocol/index.ts';

/** The subset of the WebSocket API both the browser and the `ws` package provide. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}
export type SocketFactory = (url: string) => SocketLike;

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'closed';
export type ConnectionState = {
  status: ConnectionStatus;
  /** Failed attempts since the last good connection. */
  attempt: number;
  /** When the next attempt starts, while reconnecting. */
  nextAttemptAtMs?: number;
  lastError?: { code: string; message: string; retryAfterMs?: number };
};

export type GatewayClientOptions = {
  /**
   * ws://host:port/ws (http(s) URLs are turned into ws(s) and get /ws). Several gateways (D4): a list, or one string
   * with commas (`ws://a:7420,ws://b:7420`); the client moves to the next one whenever a connection fails or drops.
   */
  url: string | readonly string[];
  token: string;
  client: { id?: string; name: string; version?: string; platform?: string; mode: ClientMode };
  socket?: SocketFactory;
  requestTimeoutMs?: number;
  reconnect?: boolean;
  backoff?: { initialMs?: number; maxMs?: number };
  /** Resume by cursor after a reconnect (R2). */
  resume?: boolean;
  /**
   * Cursor to resume from on the very first connect (e.g. kept across a page reload). 0, like none, asks for no replay:
   * the first hello brings a fresh snapshot. After that first hello the client resumes from its own cursor, 0 included.
   */
  initialCursor?: number;
  /**
   * How frames, hello-ok, events and results are read: `protocolChecks` (protocol-checks.ts), or a loader of it that
   * the client waits for before its first connection (the Control UI fetches it beside its first render).
   */
  checks: FrameChecks | (() => Promise<FrameChecks>);
};

/** The protocol's checks of what the gateway sends; null (or a throw, for a result) for what this client cannot read. */
export type FrameChecks = {
  frame(data: unknown): ServerFrame | null;
  hello(payload: unknown): HelloOk | null;
  event(frame: EventFrame): AnyEvent | null;
  result<M extends MethodName>(method: M, payload: unknown): Result<M>;
};

/** How long `start()` keeps trying before it gives up (by default it never does). */
export type StartOptions = {
  /** Failed connection attempts at each gateway before giving up (1: no retry). */
  attempts?: number;
  /** Gives up when no gateway said hello within this many milliseconds. */
  giveUpAfterMs?: number;
};

export type RequestOptions = { timeoutMs?: number; signal?: AbortSignal };

/** `asked.resumeFrom`: the cursor the connection asked to resume from (R2); absent when it asked for no replay. */
export type HelloHandler = (hello: HelloOk, asked: { resumeFrom?: number }) => void;
export type AnyHandler = (e: AnyEvent) => void;

