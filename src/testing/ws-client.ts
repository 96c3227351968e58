import WebSocket from 'ws';
import { newId } from '../lib/ids.ts';
import {
  AskdockError,
  PROTOCOL_VERSION,
  ServerFrame,
  events,
  isEventName,
  isMethodName,
  methods,
  type ClientMode,
  type EventName,
  type EventPayload,
  type HelloOk,
  type MethodName,
  type ParamsInput,
  type Result,
  LIVE_EVENTS as LIVE_ONLY,
} from '../protocol/index.ts';

/** How long `until` and `waitEvent` wait by default (a test's own timeout is 20 s). */
const UNTIL_MS = 15_000;

export type ReceivedEvent = { event: string; payload: unknown; seq?: number };
export type Response = { type: 'res'; id: string | null; ok: boolean; payload?: unknown; error?: ReturnType<AskdockError['toShape']> };

/**
 * A raw `ws` client for gateway tests. Every frame it receives is checked against the protocol: ServerFrame,
 * each event payload against its schema, each result against its method's schema. Breaches land in `problems`.
 */
export class TestClient {
  readonly events: ReceivedEvent[] = [];
  readonly responses: Response[] = [];
  readonly problems: string[] = [];
  /** Every frame as received, for tests that search the wire for what must never be on it (K1). */
  readonly rawFrames: string[] = [];
  hello: HelloOk | undefined;
  private readonly pending = new Map<string, { method: string; resolve: (r: Response) => void }>();
  private readonly waiters = new Set<() => void>();
  private nextId = 1;
  closed: { code: number; reason: string } | undefined;
  private readonly closedPromise: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    this.closedPromise = new Promise((done) =>
      ws.on('close', (code, reason) => {
        this.closed = { code, reason: reason.toString() };
        this.notify();
        done(this.closed);
      }),
    );
    ws.on('error', () => {});
    ws.on('message', (data) => this.onFrame(data.toString()));
  }

  /** `headers`: extra upgrade headers, e.g. the public Host a proxy in front is reached by. */
  static open(wsUrl: string, headers?: Record<string, string>): Promise<TestClient> {
    return new Promise((ok, fail) => {
      const ws = new WebSocket(wsUrl, headers ? { headers } : undefined);
      const client = new TestClient(ws);
      ws.once('open', () => ok(client));
      ws.once('error', fail);
    });
  }

  private notify(): void {
    for (const w of [...this.waiters]) w();
  }

  private onFrame(text: string): void {
    this.rawFrames.push(text);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      this.problems.push(`not JSON: ${text.slice(0, 200)}`);
      return;
    }
    const parsed = ServerFrame.safeParse(raw);
    if (!parsed.success) {
      this.problems.push(`not a ServerFrame: ${text.slice(0, 200)}`);
      return;
    }
    const frame = raw as Record<string, unknown>;
    if (frame.type === 'event') {
      const name = String(frame.event);
      if (!isEventName(name)) this.problems.push(`unknown event ${name}`);
      else {
        const ok = events[name].safeParse(frame.payload);
        if (!ok.success) this.problems.push(`event ${name} breaks its schema: ${ok.error.message}`);
        if (!LIVE_ONLY.has(name) && typeof frame.seq !== 'number') this.problems.push(`event ${name} without seq`);
      }
      this.events.push({ event: name, payload: frame.payload, ...(typeof frame.seq === 'number' ? { seq: frame.seq } : {}) });
    } else {
      const res = raw as Response;
      this.responses.push(res);
      const waiting = res.id !== null ? this.pending.get(res.id) : undefined;
      if (waiting) {
        this.pending.delete(res.id as string);
        if (res.ok && isMethodName(waiting.method)) {
          const ok = methods[waiting.method].result.safeParse(res.payload);
          if (!ok.success) this.problems.push(`result of ${waiting.method} breaks its schema: ${ok.error.message}`);
        }
        if (res.ok && waiting.method === 'connect') {
          const ok = methods.connect.result.safeParse(res.payload);
          if (!ok.success) this.problems.push(`hello-ok breaks its schema: ${ok.error.message}`);
          this.hello = res.payload as HelloOk;
        }
        waiting.resolve(res);
      }
    }
    this.notify();
  }

  sendRaw(data: string | Buffer, binary = false): void {
    this.ws.send(data, { binary });
  }

  /** Sends a request frame and resolves with its response frame (never rejects on error responses). */
  request(method: string, params?: unknown, id = `r${this.nextId++}`): Promise<Response> {
    return new Promise((resolve) => {
      this.pending.set(id, { method, resolve });
      this.ws.send(JSON.stringify({ type: 'req', id, method, ...(params !== undefined ? { params } : {}) }));
    });
  }

  cancel(id: string): void {
    this.ws.send(JSON.stringify({ type: 'cancel', id }));
  }

  /** Resolves with the result, or rejects with an AskdockError carrying the error shape. */
  async call<M extends MethodName>(method: M, params: ParamsInput<M>): Promise<Result<M>> {
    const res = await this.request(method, params);
    if (!res.ok) throw AskdockError.from(res.error!);
    return res.payload as Result<M>;
  }

  /** `protocol` pins the protocol the client speaks (minProtocol = maxProtocol), like an older client. */
  async connect(token: string, extra: { clientId?: string; mode?: ClientMode; resume?: { cursor: number }; protocol?: number } = {}): Promise<Response> {
    return this.request('connect', {
      minProtocol: extra.protocol ?? PROTOCOL_VERSION,
      maxProtocol: extra.protocol ?? PROTOCOL_VERSION,
      client: { id: extra.clientId ?? `client-${newId()}`, name: 'test', version: '0', platform: 'node', mode: extra.mode ?? 'cli' },
      auth: { token },
      ...(extra.resume ? { resume: extra.resume } : {}),
    });
  }

  /**
   * Waits until `check` returns something defined, re-checking after each frame. The bound is generous: it only limits
   * how long a failing test waits, and a busy machine delivers frames late.
   */
  until<T>(check: () => T | undefined, timeoutMs = UNTIL_MS, what = 'condition'): Promise<T> {
    return new Promise((ok, fail) => {
      const first = check();
      if (first !== undefined) return ok(first);
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        fail(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const waiter = () => {
        const hit = check();
        if (hit === undefined) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        ok(hit);
      };
      this.waiters.add(waiter);
    });
  }

  waitEvent<E extends EventName>(name: E, match: (p: EventPayload<E>) => boolean = () => true, timeoutMs = UNTIL_MS): Promise<EventPayload<E> & { seq?: number }> {
    return this.until(() => {
      const hit = this.events.find((e) => e.event === name && match(e.payload as EventPayload<E>));
      return hit ? ({ ...(hit.payload as object), seq: hit.seq } as EventPayload<E> & { seq?: number }) : undefined;
    }, timeoutMs, `event ${name}`);
  }

  eventsNamed<E extends EventName>(name: E): EventPayload<E>[] {
    return this.events.filter((e) => e.event === name).map((e) => e.payload as EventPayload<E>);
  }

  /** Stateful events (everything with a seq), as `event` names in arrival order. */
  seqEvents(): ReceivedEvent[] {
    return this.events.filter((e) => e.seq !== undefined);
  }

  /** The bound only limits how long a socket that never closes is waited for (a busy machine answers late). */
  waitClose(timeoutMs = 15_000): Promise<{ code: number; reason: string }> {
    return Promise.race([
      this.closedPromise,
      new Promise<never>((_, fail) => setTimeout(() => fail(new Error('socket did not close')), timeoutMs)),
    ]);
  }

  close(): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close();
  }
}
