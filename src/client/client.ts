import { AskdockError, CloseCode } from '../protocol/askdock-error.ts';
import type { EventFrame, EventName, EventPayload, HelloOk, MethodName, ParamsInput, Result } from '../protocol/index.ts';
import { backoffDelay } from '../lib/backoff.ts';
import { newId } from '../lib/ids.ts';
import { Listeners } from '../lib/listeners.ts';
import { EventRouter } from './events.ts';
import { firstHello, refusalError } from './first-hello.ts';
import { ReadyWaiters } from './ready-waiters.ts';
import { connectFrame } from './handshake.ts';
import { PendingRequests } from './pending.ts';
import { makeSocket, shutSocket, wireSocket, type Abandon, type SocketEnd } from './socket-link.ts';
import type { AnyHandler, ConnectionState, FrameChecks, GatewayClientOptions, HelloHandler, RequestOptions, SocketLike, StartOptions } from './types.ts';
import { gatewayUrls, toSocketUrl } from './urls.ts';

export type * from './types.ts';
export { gatewayUrls, questionPageUrl, toSocketUrl } from './urls.ts';

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
  private readonly pending = new PendingRequests({
    send: (frame) => this.sendRaw(frame),
    ready: () => this.handshakeDone,
    // Results only arrive over a connection, which opens once the checks are there.
    read: (method, payload) => this.checks!.result(method, payload),
  });
  /** Null until the loader given as `checks` has delivered them. */
  private checks: FrameChecks | null;
  private checksLoading = false;
  private readonly events = new EventRouter();
  private helloHandlers = new Listeners<Parameters<HelloHandler>>();
  private stateHandlers = new Listeners<[ConnectionState]>();
  private readonly waiters = new ReadyWaiters();
  private watchdog?: ReturnType<typeof setTimeout>;
  private retryTimer?: ReturnType<typeof setTimeout>;
  private abandon?: Abandon;
  private stopped = false;
  private handshakeDone = false;
  private tickIntervalMs = 15_000;
  private _state: ConnectionState = { status: 'connecting', attempt: 0 };
  hello: HelloOk | null = null;
  /** Newest event seq seen: the resume cursor (R2). */
  cursor: number;
  /** The cursor the connection being opened asked to resume from. */
  private resumeFrom: number | undefined;

  constructor(options: GatewayClientOptions) {
    this.options = options;
    this.urls = gatewayUrls(options.url);
    this.clientId = options.client.id ?? newId();
    this.cursor = options.initialCursor ?? 0;
    this.checks = typeof options.checks === 'function' ? null : options.checks;
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

  /**
   * Connects; resolves with the first hello-ok, rejects on a bad token or version (no retry for those). By default
   * it keeps trying until a gateway answers; with `attempts` or `giveUpAfterMs` it gives up instead: it rejects with
   * UNAVAILABLE naming the gateway and what went wrong, and stops.
   */
  start(opts: StartOptions = {}): Promise<HelloOk> {
    this.stopped = false;
    const first = firstHello({ onHello: (h) => this.onHello(h), onState: (h) => this.onState(h), close: () => this.close(), urls: this.urls }, opts);
    this.open();
    return first;
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.watchdog);
    const s = this.socket;
    this.socket = null;
    if (s) shutSocket(s, CloseCode.normal, 'client closed');
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
    return this.events.on(event, handler);
  }

  onAny(handler: AnyHandler): () => void {
    return this.events.onAny(handler);
  }

  /** Resolves once connected (or at once when already). */
  ready(timeoutMs = this.options.requestTimeoutMs ?? 30_000): Promise<void> {
    if (this.handshakeDone && this._state.status === 'connected') return Promise.resolve();
    return this.waiters.wait(timeoutMs);
  }

  /** A typed request; params and result are checked against the protocol. */
  request<M extends MethodName>(method: M, params: ParamsInput<M>, opts: RequestOptions = {}): Promise<Result<M>> {
    if (this.stopped) return Promise.reject(new AskdockError('UNAVAILABLE', 'client closed', { retryable: false }));
    return this.pending.add(method, params, opts, this.options.requestTimeoutMs ?? 30_000);
  }

  /** Drops the socket as a network fault would (tests, "reconnect now"). */
  dropConnection(): void {
    this.abandon?.(CloseCode.tickTimeout, 'dropped');
  }

  /**
   * Skips the backoff wait and tries now (the browser came back online). The backoff starts over: the attempts that
   * failed while the network was gone say nothing of the gateway, and should this one fail too (the network not quite
   * back yet), the next comes after the first step (1 s), not after the wait those failures grew to.
   */
  reconnectNow(): void {
    if (this.stopped || this._state.status === 'connected') return;
    clearTimeout(this.retryTimer);
    this._state = { ...this._state, attempt: 0 };
    this.open();
  }

  private sendRaw(frame: unknown) {
    const s = this.socket;
    if (s && s.readyState === 1) s.send(JSON.stringify(frame));
  }

  private setState(next: ConnectionState) {
    this._state = next;
    this.stateHandlers.emit(next);
  }

  private open() {
    if (this.stopped) return;
    if (!this.checks) return this.openWithChecks();
    this.handshakeDone = false;
    const status = this._state.status === 'connecting' && this._state.attempt === 0 ? 'connecting' : 'reconnecting';
    this.setState({ ...this._state, status, nextAttemptAtMs: undefined });
    let socket: SocketLike;
    try {
      socket = makeSocket(this.options, toSocketUrl(this.url));
    } catch (err) {
      this.scheduleReconnect({ code: 'UNAVAILABLE', message: String(err) });
      return;
    }
    this.socket = socket;
    this.abandon = wireSocket(socket, this.checks, () => this.socket === socket, {
      heard: () => this.armWatchdog(),
      event: (frame) => this.handleEvent(frame),
      hello: (payload) => this.handleHello(payload),
      result: (id, frame) => this.pending.settle(id, frame),
      closed: (end) => this.socketClosed(end),
    });
  }

  private socketClosed({ code, reason, refused, socketError }: SocketEnd) {
    this.socket = null;
    this.abandon = undefined;
    clearTimeout(this.watchdog);
    this.handshakeDone = false;
    this.pending.connectionLost();
    // S4: this address is locked out for a while, good tokens too: come back once that has passed, not for good.
    if (code === CloseCode.unauthorized && refused?.code === 'RATE_LIMITED') {
      const { message, retryAfterMs } = refused;
      return this.scheduleReconnect({ code: refused.code, message, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }, retryAfterMs);
    }
    if (code === CloseCode.unauthorized || code === CloseCode.noCommonVersion) {
      const err = refused ?? { code: code === CloseCode.unauthorized ? 'UNAUTHORIZED' : 'INVALID_REQUEST', message: reason || 'rejected' };
      this.stopped = true;
      this.failAll(AskdockError.from({ code: err.code as never, message: err.message }), true);
      this.setState({ status: 'closed', attempt: this._state.attempt, lastError: err });
      return;
    }
    this.scheduleReconnect({ code: 'UNAVAILABLE', message: socketError ?? `connection closed (${code})` });
  }

  private handleEvent(frame: EventFrame) {
    if (frame.event === 'connect.challenge') {
      this.sendConnect();
      return;
    }
    const e = this.checks!.event(frame);
    if (!e) return;
    if (e.seq !== undefined && e.seq > this.cursor) this.cursor = e.seq;
    this.events.emit(e);
  }

  private sendConnect() {
    // R2: a client that had a hello knows its place, 0 on a gateway that had no event yet; one that had none knows it
    // only from an `initialCursor` above 0 (0 there means no cursor: a fresh snapshot, not every event kept replayed).
    const placed = this.hello !== null || (this.options.initialCursor ?? 0) > 0;
    this.resumeFrom = (this.options.resume ?? true) && placed ? this.cursor : undefined;
    this.sendRaw(connectFrame(this.options, this.clientId, this.resumeFrom));
  }

  private handleHello(payload: unknown) {
    const hello = this.checks!.hello(payload);
    if (!hello) {
      this.socket?.close(CloseCode.normal, 'unreadable hello');
      return;
    }
    this.hello = hello;
    this.tickIntervalMs = hello.policy.tickIntervalMs;
    if (!hello.resumed || hello.snapshot.cursor > this.cursor) this.cursor = hello.snapshot.cursor;
    this.handshakeDone = true;
    this.setState({ status: 'connected', attempt: 0 });
    this.armWatchdog();
    this.helloHandlers.emit(hello, this.resumeFrom === undefined ? {} : { resumeFrom: this.resumeFrom });
    this.pending.sendUnsent();
    this.waiters.resolveAll();
  }

  /** The first connection waits for the checks the loader fetches; a failed fetch is retried like a failed connection. */
  private openWithChecks() {
    if (this.checksLoading) return;
    this.checksLoading = true;
    const load = this.options.checks as () => Promise<FrameChecks>;
    load().then(
      (checks) => {
        this.checksLoading = false;
        this.checks = checks;
        this.open();
      },
      (err: unknown) => {
        this.checksLoading = false;
        this.scheduleReconnect({ code: 'UNAVAILABLE', message: `could not load the protocol checks: ${String(err)}` });
      },
    );
  }

  private armWatchdog() {
    clearTimeout(this.watchdog);
    // P6: silence for two tick intervals means the link is dead even if TCP has not noticed.
    this.watchdog = setTimeout(() => this.abandon?.(CloseCode.tickTimeout, 'no tick'), this.tickIntervalMs * 2);
  }

  /** `notBeforeMs`: the gateway said when to come back (RATE_LIMITED's retryAfterMs). */
  private scheduleReconnect(lastError: NonNullable<ConnectionState['lastError']>, notBeforeMs = 0) {
    if (this.stopped) return;
    if (this.options.reconnect === false) {
      this.stopped = true;
      this.failAll(refusalError(lastError), true);
      this.setState({ status: 'closed', attempt: this._state.attempt, lastError });
      return;
    }
    const attempt = this._state.attempt + 1;
    // D4: the next gateway is tried at once; the backoff counts whole rounds over every URL.
    const n = this.urls.length;
    this.urlIndex = (this.urlIndex + 1) % n;
    const step = attempt % n === 0 ? backoffDelay(attempt / n, { ...this.options.backoff, jitter: true }) : 0;
    // With several gateways the next one has a lock-out of its own (or none): it is tried as usual.
    const delay = n === 1 ? Math.max(step, notBeforeMs) : step;
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    this.setState({ status: offline ? 'offline' : 'reconnecting', attempt, nextAttemptAtMs: Date.now() + delay, lastError });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  private failAll(err: unknown, includeUnsent: boolean) {
    this.pending.failAll(err, includeUnsent);
    this.waiters.rejectAll(err);
  }
}

