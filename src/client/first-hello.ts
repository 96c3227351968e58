import { AskdockError } from '../protocol/askdock-error.ts';
import type { HelloOk } from '../protocol/index.ts';
import type { ConnectionState, HelloHandler, StartOptions } from './types.ts';

/** What the first hello needs of a client: its hellos, its states, how many gateways it tries, and how to stop it. */
export type HelloSource = {
  onHello(handler: HelloHandler): () => void;
  onState(handler: (s: ConnectionState) => void): () => void;
  close(): void;
  readonly urls: readonly string[];
};

/**
 * The first hello-ok; rejects on a bad token or version (the client stops itself for those). With `attempts` or
 * `giveUpAfterMs` it gives up instead of trying for ever: it stops the client and rejects with UNAVAILABLE naming the
 * gateway and what went wrong.
 */
export function firstHello(client: HelloSource, opts: StartOptions): Promise<HelloOk> {
  return new Promise<HelloOk>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settled = () => {
      off();
      offState();
      clearTimeout(timer);
    };
    const giveUp = (message: string, lastError?: ConnectionState['lastError']) => {
      settled();
      client.close();
      reject(refusalError({ code: lastError?.code ?? 'UNAVAILABLE', message, ...(lastError?.retryAfterMs !== undefined ? { retryAfterMs: lastError.retryAfterMs } : {}) }));
    };
    const off = client.onHello((h) => {
      settled();
      resolve(h);
    });
    const offState = client.onState((s) => {
      if (s.status === 'closed') {
        settled();
        reject(new AskdockError((s.lastError?.code as never) ?? 'UNAVAILABLE', s.lastError?.message ?? 'connection closed'));
        return;
      }
      // D4: `attempts` at each gateway, so with several only once every one of them failed that often.
      const failed = s.status === 'reconnecting' || s.status === 'offline' ? s.attempt : 0;
      if (opts.attempts !== undefined && failed >= Math.max(1, opts.attempts) * client.urls.length)
        giveUp(`cannot reach the gateway at ${client.urls.join(', ')}: ${s.lastError?.message ?? 'connection failed'}`, s.lastError);
    });
    if (opts.giveUpAfterMs !== undefined)
      timer = setTimeout(() => giveUp(`no answer from the gateway at ${client.urls.join(', ')} within ${opts.giveUpAfterMs} ms`), opts.giveUpAfterMs);
  });
}

/** Why a connection will not come: a lock-out (S4) as RATE_LIMITED with when to come back, anything else UNAVAILABLE. */
export function refusalError(lastError: NonNullable<ConnectionState['lastError']>): AskdockError {
  const wait = lastError.retryAfterMs !== undefined ? { retryAfterMs: lastError.retryAfterMs } : {};
  if (lastError.code === 'RATE_LIMITED') return new AskdockError('RATE_LIMITED', lastError.message, { retryable: true, ...wait });
  return new AskdockError('UNAVAILABLE', lastError.message, { retryable: true });
}
