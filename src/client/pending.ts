import { AskdockError } from '../protocol/askdock-error.ts';
import { isResendable } from '../protocol/rules.ts';
import type { ErrorShape, MethodName, ParamsInput, Result } from '../protocol/index.ts';
import type { RequestOptions } from './types.ts';

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

/** Safe to send again on another connection: P7's resendable methods, and question.request with its own id (Q2 answers the first result). */
function resendable(p: Pick<Pending, 'method' | 'params'>): boolean {
  if (isResendable(p.method)) return true;
  return p.method === 'question.request' && typeof (p.params as { id?: unknown } | undefined)?.id === 'string';
}

/** What the request table needs from the connection: a way to send a frame, whether the handshake is done, and how a result is read. */
export type RequestLink = { send(frame: unknown): void; ready(): boolean; read<M extends MethodName>(method: M, payload: unknown): Result<M> };

/**
 * The requests of one client across its connections: each with its timeout and abort, sent once the handshake is
 * done, kept for the next connection when safe to repeat (P7), and re-sent after a RATE_LIMITED wait.
 */
export class PendingRequests {
  private readonly map = new Map<string, Pending>();
  private nextReq = 1;

  constructor(private readonly link: RequestLink) {}

  add<M extends MethodName>(method: M, params: ParamsInput<M>, opts: RequestOptions, defaultTimeoutMs: number): Promise<Result<M>> {
    const id = `r${this.nextReq++}`;
    return new Promise<Result<M>>((resolve, reject) => {
      const timeoutMs = opts.timeoutMs ?? defaultTimeoutMs;
      const onAbort = () => {
        const p = this.map.get(id);
        if (!p) return;
        if (p.sent) this.link.send({ type: 'cancel', id });
        p.cleanup();
        reject(opts.signal?.reason ?? new DOMException('aborted', 'AbortError'));
      };
      const entry: Pending = {
        id,
        method,
        params,
        resolve: (v) => resolve(this.link.read(method, v)),
        reject,
        sent: false,
        deadline: timeoutMs > 0 && Number.isFinite(timeoutMs) ? Date.now() + timeoutMs : Infinity,
        cleanup: () => {
          clearTimeout(entry.timer);
          clearTimeout(entry.retryTimer);
          opts.signal?.removeEventListener('abort', onAbort);
          this.map.delete(id);
        },
      };
      if (opts.signal?.aborted) return reject(opts.signal.reason ?? new DOMException('aborted', 'AbortError'));
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
        entry.timer = setTimeout(() => {
          if (entry.sent) this.link.send({ type: 'cancel', id });
          entry.cleanup();
          reject(new AskdockError('UNAVAILABLE', `${method} timed out after ${timeoutMs} ms`, { retryable: true }));
        }, timeoutMs);
      }
      this.map.set(id, entry);
      if (this.link.ready()) this.transmit(entry);
    });
  }

  /** The gateway's answer to request `id`. */
  settle(id: string, answer: { ok: true; payload?: unknown } | { ok: false; error: ErrorShape }) {
    const p = this.map.get(id);
    if (!p) return;
    if (!answer.ok && this.retryLater(p, answer.error)) return;
    p.cleanup();
    if (answer.ok) {
      try {
        p.resolve(answer.payload);
      } catch (err) {
        p.reject(new AskdockError('INVALID_REQUEST', `${p.method} answered a result this client cannot read: ${String(err)}`));
      }
    } else p.reject(AskdockError.from(answer.error));
  }

  /** A new connection is ready: everything not sent on it goes now (a RATE_LIMITED wait keeps its own timer). */
  sendUnsent() {
    for (const p of this.map.values()) if (!p.sent && !p.retryTimer) this.transmit(p);
  }

  /** Requests that cannot be safely repeated fail now; the rest wait for the next connection. */
  connectionLost() {
    for (const p of [...this.map.values()]) {
      if (p.sent && !resendable(p)) {
        p.cleanup();
        p.reject(new AskdockError('UNAVAILABLE', `connection lost during ${p.method}`, { retryable: true }));
      } else p.sent = false;
    }
  }

  failAll(err: unknown, includeUnsent: boolean) {
    for (const p of [...this.map.values()]) {
      if (includeUnsent || p.sent) {
        p.cleanup();
        p.reject(err);
      }
    }
  }

  private transmit(p: Pending) {
    p.sent = true;
    this.link.send({ type: 'req', id: p.id, method: p.method, params: p.params });
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
      if (this.link.ready() && !p.sent && this.map.get(p.id) === p) this.transmit(p);
    }, waitMs);
    return true;
  }
}
