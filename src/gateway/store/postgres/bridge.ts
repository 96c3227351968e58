import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { mayWait } from './in-process.ts';
import { WORKER_SOURCE } from './worker-source.ts';
import { Listeners } from '../../../lib/listeners.ts';

export type Step = { sql: string; params?: unknown[]; guard?: boolean };
export type StepResult = { rows: Record<string, unknown>[]; rowCount: number; command: string };

/** Longest one call waits for PostgreSQL; the session's own timeouts (below) end a stuck statement sooner. */
const ANSWER_WAIT_MS = 40_000;
const CLOSE_WAIT_MS = 5_000;
/** Per session: no statement, lock wait or idle transaction can hold the gateway (or another gateway) for long. */
const SESSION_SQL = `SET statement_timeout = '30s'; SET lock_timeout = '20s'; SET idle_in_transaction_session_timeout = '30s'`;

/** An error from PostgreSQL, with its SQLSTATE code (e.g. 23505 for a unique violation). */
export class PostgresError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'PostgresError';
  }
}

type Answer = { id: number; results?: StepResult[]; error?: { message: string; code?: string } };

/**
 * Synchronous calls into PostgreSQL. The Store contract is synchronous (the gateway's handlers, group commit and
 * visibility checks are written for better-sqlite3), so a worker thread holds the connection and this thread blocks on
 * a shared flag until the answer is back: each call costs one round trip to the database, like a SQLite call costs one
 * to the disk cache, and every gateway module keeps working unchanged on either store.
 */
export class SyncPostgres {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(8));
  private nextId = 1;
  private closed = false;
  private readonly listeners = new Listeners<[string]>();
  private readonly reconnectListeners = new Listeners();
  /** Runs before a call with a statement that may wait for a lock (in-process.ts: another gateway of this process commits its open group first). */
  beforeWaiting: () => void = () => {};

  constructor(url: string, channel: string | null) {
    const driver = createRequire(import.meta.url).resolve('pg');
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { url, driver, channel, flag: this.flag.buffer, port: port2, sessionSql: SESSION_SQL },
      transferList: [port2],
    });
    this.worker.on('message', (m: { notify?: string; listening?: boolean }) => {
      if (m.notify !== undefined) this.listeners.emit(m.notify);
      if (m.listening) this.reconnectListeners.emit();
    });
    this.worker.on('error', () => {
      this.closed = true;
    });
    // The thread never keeps the process alive on its own: PostgreSQL ends a dropped session's transaction.
    this.worker.unref();
    this.port.unref();
  }

  /** `tx`: true when the steps open a transaction, false when they end one (the thread tracks it for guarded steps). */
  run(steps: Step[], tx?: boolean): StepResult[] {
    if (this.closed) throw new Error('store: the PostgreSQL store is closed');
    if (steps.some((s) => mayWait(s.sql))) this.beforeWaiting();
    const id = this.nextId++;
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage({ id, steps, ...(tx !== undefined ? { tx } : {}) });
    const deadline = Date.now() + ANSWER_WAIT_MS;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) throw new PostgresError(`PostgreSQL did not answer within ${ANSWER_WAIT_MS / 1000} s`, 'ASKDOCK_TIMEOUT');
      Atomics.wait(this.flag, 0, 0, left);
      Atomics.store(this.flag, 0, 0);
      let got = receiveMessageOnPort(this.port);
      // Answers to calls that timed out earlier are dropped here.
      while (got && (got.message as Answer).id !== id) got = receiveMessageOnPort(this.port);
      if (!got) continue;
      const answer = got.message as Answer;
      if (answer.error) throw new PostgresError(answer.error.message, answer.error.code);
      return answer.results ?? [];
    }
  }

  query(sql: string, params?: unknown[], guard = false): StepResult {
    return this.run([{ sql, ...(params ? { params } : {}), ...(guard ? { guard } : {}) }])[0];
  }

  /** `payload` of every NOTIFY on the channel, on this thread's event loop. */
  onNotify(fn: (payload: string) => void): () => void {
    return this.listeners.add(fn);
  }

  /** After LISTEN (re)connected: notifications sent while it was away are lost, so listeners catch up. */
  onListening(fn: () => void): () => void {
    return this.reconnectListeners.add(fn);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    this.reconnectListeners.clear();
    this.worker.postMessage('close');
    Atomics.wait(this.flag, 1, 0, CLOSE_WAIT_MS);
    void this.worker.terminate();
  }
}
