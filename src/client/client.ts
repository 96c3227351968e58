import { backoffDelay } from '../lib/backoff.ts';
import { newId } from '../lib/ids.ts';
import { Listeners } from '../lib/listeners.ts';
import {
  AskdockError,
  CloseCode,
  EventFrame,
  HelloOk,
  PROTOCOL_VERSION,
  ServerFrame,
  events as eventSchemas,
  isEventName,
  isResendable,
  methods,
  type AnyEvent,
  type ClientMode,
  type EventName,
  type EventPayload,
  type MethodName,
  type ParamsInput,
  type Result,
} from '../protocol/index.ts';

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
  lastError?: { code: string; message: string };
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
  /** Cursor to resume from on the very first connect (e.g. kept across a page reload). */
  initialCursor?: number;
};

export type RequestOptions = { timeoutMs?: number; signal?: AbortSignal };

type Pending = {
  id: string;
  method: MethodName;
  params: unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  timer?: ReturnType<typeof setTimeout>;
  /** Set while waiting out a RATE_LIMITED answer's retryAfterMs before sending again. */
  retryTimer?: ReturnType<typeof setTimeout>;
  /** When the request's own timeout runs out (Infinity without one). */
  deadline: number;
  sent: boolean;
  cleanup: () => void;
};

export type HelloHandler = (hello: HelloOk) => void;
type AnyHandler = (e: AnyEvent) => void;

/** D4: the gateway URLs of `url` in order, a list or a comma-separated string; blanks are dropped. */
export function gatewayUrls(url: string | readonly string[]): string[] {
  const list = (typeof url === 'string' ? url.split(',') : [...url]).map((u) => u.trim()).filter((u) => u !== '');
  if (list.length === 0) throw new AskdockError('INVALID_REQUEST', 'url: give at least one gateway URL', { details: [{ path: 'url', problem: 'is empty' }] });
  return list;
}

/** Safe to send again on another connection: P7's resendable methods, and question.request with its own id (Q2 answers the first result). */
function resendable(p: Pick<Pending, 'method' | 'params'>): boolean {
  if (isResendable(p.method)) return true;
  return p.method === 'question.request' && typeof (p.params as { id?: unknown } | undefined)?.id === 'string';
}

export function toSocketUrl(url: string): string {
  const u = new URL(url);
  if (u.protocol === 'http:') u.protocol = 'ws:';
  if (u.protocol === 'https:') u.protocol = 'wss:';
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/ws';
  u.search = '';
  return u.toString();
}

/** The address of a question's own page in the Control UI the gateway at `url` serves (`/q/<id>`, PRODUCT U11). */
export function questionPageUrl(url: string | readonly string[], id: string): string {
  const first = typeof url === 'string' ? url.split(',')[0] : (url[0] ?? '');
  const u = new URL(first.trim());
  if (u.protocol === 'ws:') u.protocol = 'http:';
  if (u.protocol === 'wss:') u.protocol = 'https:';
  u.pathname = `/q/${encodeURIComponent(id)}`;
  u.search = '';
  u.hash = '';
  return u.toString();
}


/**
 * One gateway connection shared by every surface: handshake, typed requests with timeout and cancel,
 * events, reconnect with backoff and jitter, resume by cursor and a tick watchdog.
 */
export class GatewayClient {
  readonly options: GatewayClientOptions;
  readonly clientId: string;
  /** D4: every gateway this client may use, and the one it uses now. */
  private readonly urls: string[];
  private urlIndex = 0;
  private socket: SocketLike | null = null;
  private nextReq = 1;
  private pending = new Map<string, Pending>();
  private handlers = new Map<string, Listeners<[payload: unknown, seq?: number]>>();
  private anyHandlers = new Listeners<Parameters<AnyHandler>>();
  private helloHandlers = new Listeners<Parameters<HelloHandler>>();
  private stateHandlers = new Listeners<[ConnectionState]>();
  private waiters = new Set<{ resolve: () => void; reject: (e: unknown) => void }>();
  private watchdog?: ReturnType<typeof setTimeout>;
  private retryTimer?: ReturnType<typeof setTimeout>;
  private abandon?: (code: number, reason: string) => void;
  private stopped = false;
  private handshakeDone = false;
  private tickIntervalMs = 15_000;
  private _state: ConnectionState = { status: 'connecting', attempt: 0 };
  hello: HelloOk | null = null;
  /** Newest event seq seen: the resume cursor (R2). */
  cursor: number;

  constructor(options: GatewayClientOptions) {
    this.options = options;
    this.urls = gatewayUrls(options.url);
    this.clientId = options.client.id ?? newId();
    this.cursor = options.initialCursor ?? 0;
  }

  get state(): ConnectionState {
    return this._state;
  }

  /** How many gateways this client may move between (D4). */
  get urlCount(): number {
    return this.urls.length;
  }

  /** The gateway this client connects to now (D4: the next one after a failure). */
  get url(): string {
    return this.urls[this.urlIndex];
  }

  /** Connects; resolves with the first hello-ok, rejects on a bad token or version (no retry for those). */
  start(): Promise<HelloOk> {
    this.stopped = false;
    const first = new Promise<HelloOk>((resolve, reject) => {
      const off = this.onHello((h) => {
        off();
        offState();
        resolve(h);
      });
      const offState = this.onState((s) => {
        if (s.status === 'closed') {
          off();
          offState();
          reject(new AskdockError((s.lastError?.code as never) ?? 'UNAVAILABLE', s.lastError?.message ?? 'connection closed'));
        }
      });
    });
    this.open();
    return first;
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.watchdog);
    const s = this.socket;
    this.socket = null;
    if (s) {
      s.onclose = null;
      s.onmessage = null;
      s.onerror = null;
      try {
        s.close(CloseCode.normal, 'client closed');
      } catch {
        /* already closed */
      }
    }
    this.failAll(new AskdockError('UNAVAILABLE', 'client closed', { retryable: false }), true);
    this.setState({ status: 'closed', attempt: 0 });
  }

  onState(handler: (s: ConnectionState) => void): () => void {
    return this.stateHandlers.add(handler);
  }

  onHello(handler: HelloHandler): () => void {
    return this.helloHandlers.add(handler);
  }

  on<E extends EventName>(event: E, handler: (payload: EventPayload<E>, seq?: number) => void): () => void {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Listeners()));
    return set.add(handler as (payload: unknown, seq?: number) => void);
  }

  onAny(handler: AnyHandler): () => void {
    return this.anyHandlers.add(handler);
  }

  /** Resolves once connected (or at once when already). */
  ready(timeoutMs = this.options.requestTimeoutMs ?? 30_000): Promise<void> {
    if (this.handshakeDone && this._state.status === 'connected') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const w = {
        resolve: () => {
          clearTimeout(t);
          this.waiters.delete(w);
          resolve();
        },
        reject: (e: unknown) => {
          clearTimeout(t);
          this.waiters.delete(w);
          reject(e);
        },
      };
      const t = setTimeout(() => w.reject(new AskdockError('UNAVAILABLE', 'not connected to the gateway', { retryable: true })), timeoutMs);
      this.waiters.add(w);
    });
  }

  /** A typed request; params and result are checked against the protocol. */
  request<M extends MethodName>(method: M, params: ParamsInput<M>, opts: RequestOptions = {}): Promise<Result<M>> {
    if (this.stopped) return Promise.reject(new AskdockError('UNAVAILABLE', 'client closed', { retryable: false }));
    const id = `r${this.nextReq++}`;
    return new Promise<Result<M>>((resolve, reject) => {
      const timeoutMs = opts.timeoutMs ?? this.options.requestTimeoutMs ?? 30_000;
      const onAbort = () => {
        const p = this.pending.get(id);
        if (!p) return;
        if (p.sent) this.sendRaw({ type: 'cancel', id });
        p.cleanup();
        reject(opts.signal?.reason ?? new DOMException('aborted', 'AbortError'));
      };
      const entry: Pending = {
        id,
        method,
        params,
        resolve: (v) => resolve(methods[method].result.parse(v) as Result<M>),
        reject,
        sent: false,
        deadline: timeoutMs > 0 && Number.isFinite(timeoutMs) ? Date.now() + timeoutMs : Infinity,
        cleanup: () => {
          clearTimeout(entry.timer);
          clearTimeout(entry.retryTimer);
          opts.signal?.removeEventListener('abort', onAbort);
          this.pending.delete(id);
        },
      };
      if (opts.signal?.aborted) return reject(opts.signal.reason ?? new DOMException('aborted', 'AbortError'));
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
        entry.timer = setTimeout(() => {
          if (entry.sent) this.sendRaw({ type: 'cancel', id });
          entry.cleanup();
          reject(new AskdockError('UNAVAILABLE', `${method} timed out after ${timeoutMs} ms`, { retryable: true }));
        }, timeoutMs);
      }
      this.pending.set(id, entry);
      if (this.handshakeDone) this.transmit(entry);
    });
  }

  /** Drops the socket as a network fault would (tests, "reconnect now"). */
  dropConnection(): void {
    this.abandon?.(CloseCode.tickTimeout, 'dropped');
  }

  /** Skips the backoff wait and tries now (the browser came back online). */
  reconnectNow(): void {
    if (this.stopped || this._state.status === 'connected') return;
    clearTimeout(this.retryTimer);
    this.open();
  }

  private transmit(p: Pending) {
    p.sent = true;
    this.sendRaw({ type: 'req', id: p.id, method: p.method, params: p.params });
  }

  /**
   * RATE_LIMITED on a request that is safe to repeat: wait the gateway's retryAfterMs and send it again, as long as
   * the request's own timeout allows. Anything else (or no time left) goes back to the caller.
   */
  private retryLater(p: Pending, error: { code: string; retryAfterMs?: number }): boolean {
    if (error.code !== 'RATE_LIMITED' || !resendable(p)) return false;
    const waitMs = Math.max(1, error.retryAfterMs ?? 1000);
    if (Date.now() + waitMs >= p.deadline) return false;
    p.sent = false;
    p.retryTimer = setTimeout(() => {
      p.retryTimer = undefined;
      if (this.handshakeDone && !p.sent && this.pending.get(p.id) === p) this.transmit(p);
    }, waitMs);
    return true;
  }

  private sendRaw(frame: unknown) {
    const s = this.socket;
    if (s && s.readyState === 1) s.send(JSON.stringify(frame));
  }

  private setState(next: ConnectionState) {
    this._state = next;
    this.stateHandlers.emit(next);
  }

  private makeSocket(url: string): SocketLike {
    if (this.options.socket) return this.options.socket(url);
    const Ctor = (globalThis as { WebSocket?: new (u: string) => SocketLike }).WebSocket;
    if (!Ctor) throw new Error('no WebSocket available: pass `socket` (e.g. from src/client/node.ts)');
    return new Ctor(url);
  }

  private open() {
    if (this.stopped) return;
    this.handshakeDone = false;
    const status = this._state.status === 'connecting' && this._state.attempt === 0 ? 'connecting' : 'reconnecting';
    this.setState({ ...this._state, status, nextAttemptAtMs: undefined });
    let socket: SocketLike;
    try {
      socket = this.makeSocket(toSocketUrl(this.url));
    } catch (err) {
      this.scheduleReconnect({ code: 'UNAVAILABLE', message: String(err) });
      return;
    }
    this.socket = socket;
    let fatal: { code: string; message: string } | null = null;
    socket.onmessage = (ev) => {
      if (this.socket !== socket) return;
      this.armWatchdog();
      let frame: ServerFrame;
      try {
        frame = ServerFrame.parse(JSON.parse(String(ev.data)));
      } catch {
        return; // a frame this client cannot read is ignored, never fatal
      }
      if (frame.type === 'event') this.handleEvent(frame);
      else if (frame.id === '__connect') {
        if (frame.ok) this.handleHello(frame.payload);
        else fatal = frame.error;
      } else if (frame.id !== null) {
        const p = this.pending.get(frame.id);
        if (!p) return;
        if (!frame.ok && this.retryLater(p, frame.error)) return;
        p.cleanup();
        if (frame.ok) {
          try {
            p.resolve(frame.payload);
          } catch (err) {
            p.reject(new AskdockError('INVALID_REQUEST', `${p.method} answered a result this client cannot read: ${String(err)}`));
          }
        } else p.reject(AskdockError.from(frame.error));
      }
    };
    socket.onerror = () => {
      /* onclose follows */
    };
    const closed = (ev: { code: number; reason: string }) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.abandon = undefined;
      clearTimeout(this.watchdog);
      this.handshakeDone = false;
      // Requests that cannot be safely repeated fail now; the rest wait for the next connection.
      for (const p of [...this.pending.values()]) {
        if (p.sent && !resendable(p)) {
          p.cleanup();
          p.reject(new AskdockError('UNAVAILABLE', `connection lost during ${p.method}`, { retryable: true }));
        } else p.sent = false;
      }
      if (ev.code === CloseCode.unauthorized || ev.code === CloseCode.noCommonVersion) {
        const err = fatal ?? { code: ev.code === CloseCode.unauthorized ? 'UNAUTHORIZED' : 'INVALID_REQUEST', message: ev.reason || 'rejected' };
        this.stopped = true;
        this.failAll(AskdockError.from({ code: err.code as never, message: err.message }), true);
        this.setState({ status: 'closed', attempt: this._state.attempt, lastError: err });
        return;
      }
      this.scheduleReconnect({ code: 'UNAVAILABLE', message: `connection closed (${ev.code})` });
    };
    socket.onclose = closed;
    // A dead peer never completes the closing handshake, so giving up must not wait for it.
    this.abandon = (code, reason) => {
      socket.onclose = null;
      socket.onmessage = null;
      try {
        socket.close(code, reason);
      } catch {
        /* already closing */
      }
      closed({ code, reason });
    };
    socket.onopen = () => {
      /* the gateway speaks first with connect.challenge */
    };
  }

  private handleEvent(frame: EventFrame) {
    if (frame.event === 'connect.challenge') {
      this.sendConnect();
      return;
    }
    if (!isEventName(frame.event)) return;
    const parsed = eventSchemas[frame.event].safeParse(frame.payload);
    if (!parsed.success) return;
    if (frame.seq !== undefined && frame.seq > this.cursor) this.cursor = frame.seq;
    const set = this.handlers.get(frame.event);
    set?.emit(parsed.data, frame.seq);
    const e = { event: frame.event, payload: parsed.data, seq: frame.seq } as AnyEvent;
    this.anyHandlers.emit(e);
  }

  private sendConnect() {
    const c = this.options.client;
    const resume = (this.options.resume ?? true) && this.cursor > 0 ? { cursor: this.cursor } : undefined;
    this.sendRaw({
      type: 'req',
      id: '__connect',
      method: 'connect',
      params: {
        minProtocol: PROTOCOL_VERSION,
        maxProtocol: PROTOCOL_VERSION,
        client: {
          id: this.clientId,
          name: c.name,
          version: c.version ?? '0.1.0',
          platform: c.platform ?? (typeof navigator !== 'undefined' ? 'browser' : process.platform),
          mode: c.mode,
        },
        auth: { token: this.options.token },
        ...(resume ? { resume } : {}),
      },
    });
  }

  private handleHello(payload: unknown) {
    const hello = HelloOk.safeParse(payload);
    if (!hello.success) {
      this.socket?.close(CloseCode.normal, 'unreadable hello');
      return;
    }
    this.hello = hello.data;
    this.tickIntervalMs = hello.data.policy.tickIntervalMs;
    if (!hello.data.resumed || hello.data.snapshot.cursor > this.cursor) this.cursor = hello.data.snapshot.cursor;
    this.handshakeDone = true;
    this.setState({ status: 'connected', attempt: 0 });
    this.armWatchdog();
    this.helloHandlers.emit(hello.data);
    for (const p of this.pending.values()) if (!p.sent && !p.retryTimer) this.transmit(p);
    for (const w of [...this.waiters]) w.resolve();
  }

  private armWatchdog() {
    clearTimeout(this.watchdog);
    // P6: silence for two tick intervals means the link is dead even if TCP has not noticed.
    this.watchdog = setTimeout(() => this.abandon?.(CloseCode.tickTimeout, 'no tick'), this.tickIntervalMs * 2);
  }

  private scheduleReconnect(lastError: { code: string; message: string }) {
    if (this.stopped) return;
    if (this.options.reconnect === false) {
      this.stopped = true;
      this.failAll(new AskdockError('UNAVAILABLE', lastError.message, { retryable: true }), true);
      this.setState({ status: 'closed', attempt: this._state.attempt, lastError });
      return;
    }
    const attempt = this._state.attempt + 1;
    // D4: the next gateway is tried at once; the backoff counts whole rounds over every URL.
    const n = this.urls.length;
    this.urlIndex = (this.urlIndex + 1) % n;
    const delay = attempt % n === 0 ? backoffDelay(attempt / n, { ...this.options.backoff, jitter: true }) : 0;
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    this.setState({ status: offline ? 'offline' : 'reconnecting', attempt, nextAttemptAtMs: Date.now() + delay, lastError });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  private failAll(err: unknown, includeUnsent: boolean) {
    for (const p of [...this.pending.values()]) {
      if (includeUnsent || p.sent) {
        p.cleanup();
        p.reject(err);
      }
    }
    for (const w of [...this.waiters]) w.reject(err);
  }
}
