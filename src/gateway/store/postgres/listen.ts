import pg from 'pg';
import { Listeners } from '../../../lib/listeners.ts';
import { SILENT_NETWORK } from './limits.ts';

/**
 * D3: the connection that LISTENs for other gateways' commits on one channel. It reconnects with backoff when it
 * breaks, is asked to answer now and then (a silent network would leave notifications unheard with nothing to tell),
 * and says so each time it is listening again, since notifications sent while it was away are lost.
 */
export class NotifyConnection {
  private listener: pg.Client | null = null;
  /** Ends the LISTEN connection now (and its checks): set while one is connecting or connected. */
  private stopListening: (() => void) | null = null;
  private listenDelay = 100;
  private closed = false;
  private readonly notifyListeners = new Listeners<[string]>();
  private readonly reconnectListeners = new Listeners();

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly checkMs: number,
    /** A commit's notification names its last seq, sent once the commit was on disk. */
    private readonly heardFlushed: (seq: number) => void,
  ) {
    this.listen();
  }

  /** `payload` of every NOTIFY on the channel. */
  onNotify(fn: (payload: string) => void): () => void {
    return this.notifyListeners.add(fn);
  }

  /** After LISTEN (re)connected: notifications sent while it was away are lost, so listeners catch up. */
  onListening(fn: () => void): () => void {
    return this.reconnectListeners.add(fn);
  }

  /** Nothing is heard or told after this. */
  clear(): void {
    this.closed = true;
    this.notifyListeners.clear();
    this.reconnectListeners.clear();
  }

  /** Ends the connection for good. */
  close(): void {
    this.clear();
    this.stopListening?.();
  }

  private listen(): void {
    if (this.closed) return;
    const c = new pg.Client({ connectionString: this.url, application_name: 'askdock-listen', keepAlive: SILENT_NETWORK.keepAlive, keepAliveInitialDelayMillis: SILENT_NETWORK.keepAliveInitialDelayMillis });
    let failed = false;
    let check: NodeJS.Timeout | undefined;
    const stop = () => {
      clearInterval(check);
      if (this.listener === c) this.listener = null;
      if (this.stopListening === stop) this.stopListening = null;
      c.end().catch(() => {});
      // A silent network would keep the goodbye (and the socket) waiting: the socket goes now.
      (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    };
    this.stopListening = stop;
    const retry = () => {
      clearInterval(check);
      if (failed) return;
      failed = true;
      stop();
      if (this.closed) return;
      setTimeout(() => this.listen(), this.listenDelay).unref();
      this.listenDelay = Math.min(this.listenDelay * 2, 2000);
    };
    c.on('error', retry);
    c.on('end', retry);
    c.on('notification', (n) => {
      const payload = n.payload ?? '';
      const seq = /^\d+/.exec(payload);
      if (seq) this.heardFlushed(Number(seq[0]));
      this.notifyListeners.emit(payload);
    });
    c.connect()
      .then(() => c.query(`LISTEN ${this.channel}`))
      .then(() => {
        // Failed meanwhile (retried already), or closed.
        if (failed) return;
        if (this.closed) return stop();
        this.listener = c;
        this.listenDelay = 100;
        // Notifications go unheard on a connection whose network went silent, and nothing else would tell: it is asked
        // to answer now and then, and replaced (the listeners then catch up) when it has not answered by the next time.
        let asked = false;
        check = setInterval(() => {
          if (asked) return retry();
          asked = true;
          c.query('SELECT 1').then(
            () => (asked = false),
            () => retry(),
          );
        }, this.checkMs);
        check.unref();
        this.reconnectListeners.emit();
      })
      .catch(retry);
  }
}
