/**
 * Code chunks that load on demand, loaded again after a failure instead of failing for good (U11): a chunk requested
 * while the network drops would otherwise leave its part of the page missing until a reload.
 *
 * A failed `import()` is tried once more soon; if that fails too the load rejects, and the chunk is fetched again when
 * the window comes back online, when the gateway connection comes back, or when someone presses Retry
 * (`retryFailedImports`). Browsers that follow the HTML module map as amended in 2024 (Chromium does) fetch a URL whose
 * module failed to load again on the next `import()`, so the same importer is simply called again.
 */

import { Listeners } from '../../lib/listeners.ts';

/** The short wait before the one quick second try; a longer outage waits for `online` instead. */
export const SOON_MS = 1000;

const retryListeners = new Listeners();

/** Fetches every chunk whose last load failed again, and lets the parts of the page that gave up try again. */
export function retryFailedImports(): void {
  retryListeners.emit();
}

/** Runs `listener` whenever failed chunks are fetched again; returns the unsubscribe. */
export function onImportRetry(listener: () => void): () => void {
  return retryListeners.add(listener);
}

if (typeof window !== 'undefined') window.addEventListener('online', retryFailedImports);

export type ImportState<T> =
  | { status: 'idle' }
  | { status: 'loading'; promise: Promise<T> }
  | { status: 'loaded'; value: T }
  | { status: 'failed'; error: unknown };

export type RetryingImport<T> = {
  /** The module: the load under way or done, or a new load when there was none yet or the last one failed. */
  load(): Promise<T>;
  /** Where the load stands; a new object on each change (for `useSyncExternalStore`). */
  state(): ImportState<T>;
  /** Called on each change of `state()`; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
};

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Wraps an importer (`() => import('./x.ts')`, or one that picks an export from it) so that a failed load is retried. */
export function retryingImport<T>(importer: () => Promise<T>, options: { soonMs?: number } = {}): RetryingImport<T> {
  const soonMs = options.soonMs ?? SOON_MS;
  let current: ImportState<T> = { status: 'idle' };
  let loading: Promise<T> | null = null;
  const listeners = new Listeners();
  const become = (next: ImportState<T>) => {
    current = next;
    listeners.emit();
  };

  const start = (): Promise<T> => {
    const promise = importer()
      .catch(() => wait(soonMs).then(importer))
      .then(
        (value) => {
          stopListening();
          become({ status: 'loaded', value });
          return value;
        },
        (error: unknown) => {
          loading = null;
          become({ status: 'failed', error });
          throw error;
        },
      );
    // The caller handles the failure; one started by `online` has no caller, and its failure is only a state.
    promise.catch(() => undefined);
    loading = promise;
    become({ status: 'loading', promise });
    return promise;
  };

  const stopListening = onImportRetry(() => {
    if (current.status === 'failed') start();
  });

  return {
    load: () => (current.status === 'loaded' ? Promise.resolve(current.value) : (loading ?? start())),
    state: () => current,
    subscribe: (listener) => listeners.add(listener),
  };
}
