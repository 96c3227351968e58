import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { AskdockError, errorDetailsProblem, CloseCode, PROTOCOL_VERSION, ServerFrame, type ErrorShape } from '../../protocol/index.ts';
import type { Core } from '../core.ts';
import type { Turn } from '../hub/turn.ts';
import { textFrame, type WireFrame } from '../hub/wire.ts';
import { newId } from '../infra/ids.ts';
import type { LoginGuard } from '../infra/login-guard.ts';
import type { Rate, RequestLimiter } from '../infra/rate-limit.ts';
import { forProtocolOne } from './protocol-one.ts';

export type ConnectionOptions = {
  handshakeTimeoutMs: number;
  maxPayload: number;
  tickIntervalMs: number;
  /** Requests per identity across its connections. */
  requests: RequestLimiter;
  /** Frames per connection, counted before parsing, before login too. */
  frameRate: Rate;
  /** S4: failed connects per remote address. */
  logins: LoginGuard;
  /** Bad frames (not JSON, wrong shape, binary) a socket may send before `connect` before it is closed. */
  maxBadFramesBeforeConnect: number;
  checkFrames: boolean;
  /** S6: a consumer with this much unsent data is closed (1008) rather than buffered without bound. */
  maxBufferedBytes: number;
  /** Shared by the gateway's connections: each socket is corked until the end of the turn, then written once. */
  turn: Turn;
  /** Told to clients in hello-ok (`server.publicUrl`), so the links they print reach the Control UI. */
  publicUrl?: string;
};

/**
 * A socket's way out (connection.ts): frames written under ws at the end of the turn (S6: a slow consumer is closed),
 * lowered for a protocol-1 client, checked against ServerFrame when asked; refusals and errors as responses (P3).
 */
export abstract class ConnectionWire {
  readonly connId = newId('c');
  protected state: 'handshake' | 'open' | 'closed' = 'handshake';
  private badFrames = 0;
  /** P4/Q12: the protocol agreed in `connect`; a protocol-1 client gets question kinds lowered. */
  protected protocol = PROTOCOL_VERSION;

  constructor(
    protected readonly ws: WebSocket,
    /** The socket under `ws`, held until the end of the turn so its frames leave together, after their commit. */
    protected readonly socket: Duplex,
    protected readonly core: Core,
    protected readonly opts: ConnectionOptions,
    /** The peer's address, for S4 and the logs. */
    protected readonly remoteAddress: string,
  ) {}

  close(code: number, reason: string): void {
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason);
  }

  /** Text for this connection alone, or a frame built once for every recipient of the same event. */
  send(frame: string | WireFrame, response = false): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    const out = this.protocol === 1 ? forProtocolOne(frame) : frame;
    if (this.ws.bufferedAmount > this.opts.maxBufferedBytes) {
      // S6: the close frame queues behind what is unsent; ws destroys the socket if the peer never reads it.
      this.opts.turn.hold(this.socket, true);
      this.core.opts.log.warn({ connId: this.connId, address: this.remoteAddress, unsent: this.ws.bufferedAmount }, `closing: more than ${this.opts.maxBufferedBytes} bytes unsent`);
      this.close(CloseCode.policy, `slow consumer: more than ${Math.round(this.opts.maxBufferedBytes / 1048576)} MiB unsent`);
      return;
    }
    this.opts.turn.hold(this.socket, response);
    // Every frame goes under ws, framed here (one buffer, one write): without extensions ws queues nothing, so frames
    // never interleave, and nothing of ws's own sender runs per frame.
    this.socket.write(typeof out === 'string' ? textFrame(out) : out);
  }

  protected sendFrame(frame: ServerFrame): void {
    if (this.opts.checkFrames) {
      const ok = ServerFrame.safeParse(frame);
      if (!ok.success) throw new Error(`outgoing frame breaks ServerFrame: ${ok.error.message}`);
      const wrong = ok.data.type === 'res' && !ok.data.ok ? errorDetailsProblem(ok.data.error) : null;
      if (wrong) throw new Error(`outgoing frame breaks ErrorDetails: ${wrong}`);
    }
    // Responses (and the handshake) leave at the end of this turn; only event-only sockets may wait.
    this.send(JSON.stringify(frame), true);
  }

  /** P3, and before `connect` a socket that keeps sending junk is not worth keeping open. */
  protected badFrame(id: string | null, error: AskdockError): void {
    this.replyError(id, error);
    if (this.state !== 'handshake' || ++this.badFrames < this.opts.maxBadFramesBeforeConnect) return;
    this.core.opts.log.warn({ connId: this.connId, address: this.remoteAddress }, `closing: ${this.badFrames} bad frames before connect`);
    this.close(CloseCode.policy, `${this.badFrames} bad frames before connect`);
  }

  protected replyError(id: string | null, error: AskdockError | ErrorShape, method?: string): void {
    const shape = error instanceof AskdockError ? error.toShape() : error;
    // Refusals are the client's business; one line each says which and why, at debug unless the gateway failed.
    if (shape.code !== 'UNAVAILABLE') this.core.opts.log.debug({ connId: this.connId, method, code: shape.code }, shape.message);
    this.sendFrame({ type: 'res', id, ok: false, error: shape });
  }

  protected toError(method: string, err: unknown): AskdockError {
    if (err instanceof AskdockError) return err;
    // Only a busy database is worth retrying; anything else is a bug a retry would repeat.
    const busy = /^SQLITE_(BUSY|LOCKED)/.test(String((err as { code?: unknown })?.code ?? ''));
    this.core.opts.log.error({ connId: this.connId, method, code: 'UNAVAILABLE', err }, `${method} failed`);
    return new AskdockError('UNAVAILABLE', `internal error in ${method}: ${(err as Error)?.message ?? String(err)}`, { retryable: busy });
  }
}
