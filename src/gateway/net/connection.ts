import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import { AskdockError, ClientFrame, CloseCode, ConnectParams, DEMO_AGENT_CLIENT_NAME, invalidRequest, isMethodName, plainRequestFrame, zodProblems, type MethodName, type RequestFrame } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { TimerHandle } from '../infra/clock.ts';
import type { Core } from '../core.ts';
import { dispatch, nulRefusal } from '../dispatch.ts';
import type { ConnInfo } from '../handlers/types.ts';
import { RequestScope, type Subscriber } from '../hub/hub.ts';
import { FrameGate } from './frame-gate.ts';
import { Inflight, rawBytes, readableId } from './connection-frames.ts';
import { admit, helloFor, refuseMalformedConnect, withoutToken } from './handshake.ts';
import { MAX_FRAME_DEPTH, nestsDeeperThan } from './frame-depth.ts';
import { fitHello } from './hello-size.ts';
import { AgentSubscriptions } from '../sessions/subscriptions.ts';
import type { Viewer } from '../sessions/visibility.ts';
import { ConnectionWire, type ConnectionOptions } from './connection-wire.ts';

export type { ConnectionOptions } from './connection-wire.ts';

const nobody: Viewer = { identity: { id: '', role: 'operator', scopes: new Set() }, subscribed: () => false };

/** Methods whose handlers may wait for minutes and change nothing: a later request of the same client never waits for them. */
const WAITS: ReadonlySet<string> = new Set(['question.waitAnswer', 'secret.waitResult']);

/** One socket: challenge, handshake (P4), hello-ok (P5), then requests through the dispatch table. */
export class Connection extends ConnectionWire implements Subscriber {
  /** Settles once the connection was recorded (Q7 presence): true, or false when the store refused. */
  private present: Promise<boolean> | null = null;
  private info: ConnInfo | undefined;
  /** Requests being handled; the AbortController is made only when a handler asks for the signal. */
  private readonly inflight = new Map<string, Inflight>();
  /** Requests not answered yet, whose writes a later request's reads wait for (a shared database: EventHub.request). */
  private readonly unanswered = new Set<RequestScope>();
  /** One lane: the newest of this client's requests whose handler has not settled yet (long waits left out). */
  private handling: Promise<unknown> | null = null;
  private readonly frames: FrameGate;
  /** U18: the agent this socket makes present, while it is open. */
  private presence: { agentId: string; demo: boolean } | null = null;
  private handshakeTimer: TimerHandle | null = null;
  private closedResolve!: () => void;
  private readonly closed = new Promise<void>((ok) => (this.closedResolve = ok));

  constructor(
    ws: WebSocket,
    socket: Duplex,
    core: Core,
    opts: ConnectionOptions,
    private readonly onClosed: (conn: Connection) => void,
    /** The peer's address, for S4 and the logs. */
    remoteAddress = 'unknown',
  ) {
    super(ws, socket, core, opts, remoteAddress);
    this.frames = new FrameGate(opts.frameRate, ws, 2 * opts.maxPayload, (data, isBinary) => this.handleFrame(data, isBinary), () => {
      this.core.opts.log.warn({ connId: this.connId, address: this.remoteAddress }, 'closing: frames far past the frame limit');
      this.close(CloseCode.policy, 'too many frames: slow down');
    });
  }

  get viewer(): Viewer {
    return this.info?.viewer ?? nobody;
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  start(): void {
    this.ws.on('message', (data, isBinary) => this.frames.offer(data, isBinary));
    this.ws.on('close', () => this.onClose());
    // ws reports oversized frames (1009) and protocol errors here before closing; the close handler cleans up.
    this.ws.on('error', () => {});
    this.sendFrame({ type: 'event', event: 'connect.challenge', payload: { nonce: randomBytes(16).toString('base64url'), ts: this.core.clock.now() } });
    this.handshakeTimer = this.core.clock.setTimeout(() => {
      if (this.state === 'handshake') this.close(CloseCode.handshakeTimeout, 'no connect within the handshake timeout');
    }, this.opts.handshakeTimeoutMs);
  }

  whenClosed(): Promise<void> {
    return this.closed;
  }

  private handleFrame(data: RawData, isBinary: boolean): void {
    // A store failure during the handshake must cost this socket an error, never the whole gateway.
    try {
      this.onMessage(data, isBinary);
    } catch (err) {
      this.replyError(null, this.toError('frame handling', err));
    }
  }

  /** P3: bad frames answer INVALID_REQUEST (with the id when one could be read) and the socket stays open. */
  private onMessage(data: RawData, isBinary: boolean): void {
    if (this.state === 'closed') return;
    if (isBinary) return this.badFrame(null, new AskdockError('INVALID_REQUEST', 'frames must be JSON text frames, not binary'));
    const bytes = rawBytes(data);
    if (nestsDeeperThan(bytes, MAX_FRAME_DEPTH))
      return this.badFrame(null, new AskdockError('INVALID_REQUEST', `frame nests deeper than ${MAX_FRAME_DEPTH} levels`));
    let raw: unknown;
    const text = bytes.toString('utf8');
    try {
      raw = JSON.parse(text);
    } catch (err) {
      return this.badFrame(null, new AskdockError('INVALID_REQUEST', `frame is not JSON: ${(err as Error).message}`));
    }
    let frame = plainRequestFrame(raw) as ClientFrame | null;
    if (!frame) {
      const parsed = ClientFrame.safeParse(raw);
      if (!parsed.success) return this.badFrame(readableId(raw), invalidRequest('frame', zodProblems(parsed.error)));
      frame = parsed.data;
    }
    if (frame.type === 'cancel') {
      // P2: the handler stops and nothing more is answered for that id.
      this.inflight.get(frame.id)?.cancel('cancelled by the client');
      return;
    }
    if (this.state === 'handshake') {
      // P4 first: a first request other than connect is UNAUTHORIZED whatever it carries, and a token with U+0000 in
      // it is a bad token like any other (counted as a failed login); the rest of connect's texts are refused as P3.
      const nul = frame.method === 'connect' ? nulRefusal('connect', withoutToken(frame.params)) : undefined;
      return nul ? this.badFrame(frame.id, nul) : this.handshake(frame);
    }
    if (frame.method === 'connect')
      return this.replyError(frame.id, invalidRequest('request', [{ path: 'method', problem: 'connect is sent once per socket, and this one is connected already' }]));
    if (this.inflight.has(frame.id))
      return this.replyError(frame.id, invalidRequest('request', [{ path: 'id', problem: `"${frame.id}" is already in flight: request ids are unique per connection` }]));
    const take = this.opts.requests.take(this.info!.identity);
    if (!take.ok)
      return this.replyError(frame.id, new AskdockError('RATE_LIMITED', `too many requests: retry in ${take.retryAfterMs} ms`, { retryAfterMs: take.retryAfterMs, retryable: true }));
    if (!isMethodName(frame.method))
      return this.replyError(frame.id, new AskdockError('METHOD_NOT_FOUND', `unknown method "${frame.method}"`, { details: { method: frame.method } }));
    const nul = nulRefusal(frame.method, frame.params, text);
    if (nul) return this.badFrame(frame.id, nul);
    this.run(frame.id, frame.method, frame.params);
  }

  /** A handler that answers at once is answered without a promise; one that waits, when its promise settles. */
  private run(id: string, method: MethodName, params: unknown): void {
    const info = this.info;
    if (!info) return;
    const request = new Inflight();
    this.inflight.set(id, request);
    const { hub } = this.core;
    const run = () => dispatch(method, params, { core: this.core, conn: info, cancellation: request }, this.opts.checkFrames);
    // Units in lanes (a shared database): the request's own scope (EventHub.request). With one lane, none is needed.
    const scope = hub.laned ? new RequestScope() : null;
    let result: unknown;
    try {
      if (scope) {
        // A client that sends a change and then a read without waiting for the first answer reads what it changed: the
        // read waits for each earlier request's handler (a unit joins its group only once the handler gets to it), then
        // for the groups it joined. A long wait changes nothing and is not waited for.
        const earlier = this.unanswered.size ? [...this.unanswered] : null;
        const before = () =>
          earlier ? Promise.all(earlier.map((s) => s.handled.then(() => new Promise((ok) => hub.whenDurable(ok, s))))) : Promise.resolve();
        if (!WAITS.has(method)) this.unanswered.add(scope);
        result = hub.request(scope, before, run);
      } else if (this.handling) {
        // One lane: units run in the order they are asked for and reads see the open group, so a request that arrives
        // while an earlier one of its client is still being handled starts once that one's handler settled (the newest
        // such handler: it started only after those before it had settled).
        result = this.handling.then(run, run);
      } else result = run();
    } catch (err) {
      return this.answer(id, request, scope, method, false, err);
    }
    if (!(result instanceof Promise)) return this.answer(id, request, scope, method, true, result);
    const handled = result;
    if (!scope && !WAITS.has(method)) this.handling = handled;
    handled.then(
      (payload) => {
        if (this.handling === handled) this.handling = null;
        this.answer(id, request, scope, method, true, payload);
      },
      (err: unknown) => {
        if (this.handling === handled) this.handling = null;
        this.answer(id, request, scope, method, false, err);
      },
    );
  }

  /** R3: the answer may tell of writes not yet committed (its units' groups), so it leaves once they are durable. */
  private answer(id: string, request: Inflight, scope: RequestScope | null, method: MethodName, ok: boolean, outcome: unknown): void {
    if (this.inflight.get(id) === request) this.inflight.delete(id);
    scope?.finish();
    this.core.hub.whenDurable((committed) => {
      if (scope) this.unanswered.delete(scope);
      if (request.cancelled) return;
      if (!committed)
        return this.replyError(id, new AskdockError('UNAVAILABLE', `${method} was undone: the gateway could not save its changes; retry`, { retryable: true }));
      if (ok) this.sendFrame({ type: 'res', id, ok: true, payload: outcome });
      else this.replyError(id, this.toError(method, outcome), method);
    }, scope ?? undefined);
  }

  /** P4: the first request must be connect with a known token and a common protocol version. */
  private handshake(frame: RequestFrame): void {
    if (frame.method !== 'connect') {
      this.replyError(frame.id, new AskdockError('UNAUTHORIZED', 'the first request must be connect'));
      return this.close(CloseCode.unauthorized, 'connect first');
    }
    const parsed = ConnectParams.safeParse(frame.params);
    const ctx = { core: this.core, logins: this.opts.logins, connId: this.connId, address: this.remoteAddress };
    if (!parsed.success) {
      const problems = zodProblems(parsed.error);
      const refused = refuseMalformedConnect(frame.params, problems.map((p) => p.path), ctx);
      if (!refused || !('refusal' in refused)) return this.badFrame(frame.id, invalidRequest('connect', problems));
      this.replyError(frame.id, refused.refusal);
      return this.close(...refused.close);
    }
    const p = parsed.data;
    const admitted = admit(p, ctx);
    if ('refusal' in admitted) {
      this.replyError(frame.id, admitted.refusal);
      return this.close(...admitted.close);
    }
    const { identity } = admitted;
    this.protocol = admitted.protocol;
    if (this.handshakeTimer) this.core.clock.clearTimeout(this.handshakeTimer);
    this.handshakeTimer = null;
    const { core } = this;
    const subs = core.subscriptions;
    const clientId = p.client.id;
    const viewer: Viewer = { identity, subscribed: (key) => AgentSubscriptions.matches(subs.of(identity.id, clientId), key) };
    this.info = { connId: this.connId, identity, clientId, mode: p.client.mode, viewer };
    this.state = 'open';
    // U18: an agent's first connection makes it present in its sessions; the demo agent is told apart by its name.
    if (identity.role === 'agent') {
      this.presence = { agentId: identity.id, demo: p.client.name === DEMO_AGENT_CLIENT_NAME };
      core.presence.connected(this.presence.agentId, this.presence.demo);
    }
    this.present = core.questions.clientConnected(identity, clientId).then(
      () => true,
      (err: unknown) => {
        // The store failed (or refused what the client sent): the client hears why, and the socket does not stay half open.
        this.replyError(frame.id, this.toError('connect', err), 'connect');
        this.close(CloseCode.internal, 'the gateway could not record this connection');
        return false;
      },
    );
    // R3: the snapshot is read with nothing uncommitted (hub.quiet), so it never shows uncommitted state.
    void this.present.then((recorded) => (recorded ? this.sayHello(frame.id, identity, p.resume?.cursor) : undefined));
  }

  /** P5 hello-ok with its snapshot, then R2 replay, then live events from the snapshot's cursor on. */
  private async sayHello(requestId: string, identity: Identity, cursor: number | undefined): Promise<void> {
    const { core } = this;
    if (this.state !== 'open') return;
    try {
      await core.hub.quiet(() => this.sayHelloNow(requestId, identity, cursor));
    } catch (err) {
      if (this.state !== 'open') return;
      this.replyError(requestId, this.toError('connect', err), 'connect');
      this.close(CloseCode.internal, 'the gateway could not read its snapshot');
    }
  }

  private async sayHelloNow(requestId: string, identity: Identity, cursor: number | undefined): Promise<void> {
    const { core } = this;
    // R2: a cursor older than what is kept cannot be resumed; the client refetches from the snapshot.
    // C6/D2: an agent may have subscribed through another gateway of the database, or before a restart.
    if (identity.role === 'agent' && this.info) (await core.subscriptions.refresh(identity.id, this.info.clientId));
    const latest = await core.store.latestSeq();
    const resumed = cursor !== undefined && cursor <= latest && (await core.store.oldestEventSeq()) <= cursor + 1;
    const hello = await helloFor(core, identity, this.connId, this.opts, latest, resumed, this.protocol);
    if (this.state !== 'open') return;
    const overhead = Buffer.byteLength(JSON.stringify({ type: 'res', id: requestId, ok: true, payload: null })) - 4;
    this.sendFrame({ type: 'res', id: requestId, ok: true, payload: fitHello(hello, this.opts.maxPayload, overhead) });
    core.opts.log.info({ connId: this.connId, identity: identity.id, client: this.info?.mode, resumed }, 'connection opened');
    if (resumed) await core.hub.replay(this, cursor, latest);
    core.hub.add(this, latest);
  }

  private onClose(): void {
    const wasOpen = this.state === 'open';
    this.state = 'closed';
    this.frames.stop();
    if (this.handshakeTimer) this.core.clock.clearTimeout(this.handshakeTimer);
    this.handshakeTimer = null;
    for (const request of this.inflight.values()) request.cancel('connection closed');
    this.inflight.clear();
    this.core.hub.remove(this);
    if (wasOpen) this.core.opts.log.info({ connId: this.connId }, 'connection closed');
    if (this.presence) this.core.presence.disconnected(this.presence.agentId, this.presence.demo);
    this.presence = null;
    const info = this.info;
    const gone = wasOpen && info && this.present ? this.present.then((recorded) => (recorded ? this.core.questions.clientDisconnected(info.identity, info.clientId) : undefined)) : Promise.resolve();
    gone
      .catch((err: unknown) => this.core.opts.log.error({ connId: this.connId, err }, 'closing the connection failed'))
      .finally(() => {
        this.onClosed(this);
        this.closedResolve();
      });
  }
}
