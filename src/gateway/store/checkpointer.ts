import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** How often the background connection copies committed WAL pages back into the database file. */
export const CHECKPOINT_EVERY_MS = 200;

/** Longest a closing store waits for the thread to let go of the database. */
const STOP_WAIT_MS = 2000;

/**
 * The thread's own module (CommonJS: it needs no TypeScript loader, in the repo or in the packed package). A path, not a
 * URL object: where a page's `URL` stands in for Node's (a jsdom test), the Worker would refuse one.
 */
const WORKER_FILE = fileURLToPath(new globalThis.URL('./checkpoint-worker.cjs', import.meta.url).href);

export type Checkpointer = {
  stop(): void;
  /** Starts no checkpoint until `resume`; settles once none is running (a test's way to see what a commit alone did). */
  hold(): Promise<void>;
  resume(): void;
};

/** Slots of the shared control array: set once the thread let go; no checkpoint may start; one is running. */
const CLOSED = 0;
const HELD = 1;
const RUNNING = 2;

/** Node has had `Atomics.waitAsync` since 16; the compiler's library here does not declare it yet. */
type WaitAsync = (on: Int32Array, index: number, value: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync: WaitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/**
 * Runs WAL checkpoints on their own thread and connection. A checkpoint copies pages into the database file and syncs
 * it; done inline by SQLite inside some COMMIT, it stalled the event loop for milliseconds about once every hundred
 * commits. PASSIVE never blocks the gateway's writes. `onFailure` hears of a thread that stopped working, so the
 * caller can go back to inline checkpoints; committed data never depends on it (R3: it is in the WAL already).
 */
export function startCheckpointer(file: string, synchronous: string, onFailure: (why: string) => void, everyMs = CHECKPOINT_EVERY_MS): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const control = new Int32Array(new SharedArrayBuffer(12));
  const worker = new Worker(WORKER_FILE, { workerData: { file, driver, synchronous, everyMs, control: control.buffer } });
  let stopped = false;
  const fail = (why: string) => {
    if (stopped) return;
    stopped = true;
    onFailure(why);
    void worker.terminate();
  };
  worker.on('message', (m: { failed?: string }) => m.failed !== undefined && fail(m.failed));
  worker.on('error', (err) => fail(err.message));
  worker.on('exit', (code) => fail(`checkpoint thread exited with code ${code}`));
  // Never keeps the process alive: SQLite recovers a WAL left behind on the next open.
  worker.unref();
  return {
    /** Returns once the thread closed its connection, so the store's own close is the last and tidies the WAL. */
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage('close');
      Atomics.wait(control, CLOSED, 0, STOP_WAIT_MS);
    },
    async hold() {
      // The thread marks a checkpoint running before it looks at the hold, so once this reads none running, none starts.
      Atomics.store(control, HELD, 1);
      while (Atomics.load(control, RUNNING) === 1) {
        const waiting = waitAsync(control, RUNNING, 1);
        if (waiting.async) await waiting.value;
      }
    },
    resume() {
      Atomics.store(control, HELD, 0);
    },
  };
}
