import { Listeners } from '../../lib/listeners.ts';

/**
 * Code chunks that load on demand, loaded again after a failure instead of failing for good (U11): a chunk requested
 * while the network drops would otherwise leave its part of the page missing until a reload.
 *
 * A failed `import()` is tried once more soon; if that fails too the load rejects, and the chunk is fetched again when
 * the window comes back online, when the gateway connection comes back, when someone presses Retry
 * (`retryFailedImports`), or on the next `load()`. Browsers that follow the HTML module map as amended in 2024 fetch
 * a URL whose module failed to load again on the next `import()`; others (Chromium 150, for one) keep the failure under
 * that URL for the page's life. So a retry imports the URL the failure named with a query of its own, which no browser
 * has seen fail (the server ignores it), and falls back to the importer where the failure names no URL.
 */

/** The short wait before the one quick second try; a longer outage waits for `online` instead. */
export const SOON_MS = 1000;

const retries = new Listeners();

/** Fetches every chunk whose last load failed again, and lets the parts of the page that gave up try again. */
export function retryFailedImports(): void {
  retries.emit();
}

/** Runs `listener` whenever failed chunks are fetched again; returns the unsubscribe. */
export const onImportRetry = (listener: () => void): (() => void) => retries.add(listener);

// Absent outside a browser (unit tests in Node).
globalThis.addEventListener?.('online', retryFailedImports);

/**
 * One load of a chunk. Once it settles it carries its outcome the way React's `use` reads a promise it has seen before
 * (`status` with `value` or `reason`), so a chunk already in renders in the same pass, never through a Suspense fallback.
 */
export type Attempt<T> = Promise<T> & ({ status?: undefined } | { status: 'fulfilled'; value: T } | { status: 'rejected'; reason: unknown });

export type RetryingImport<T> = {
  /** The module: the load under way or done, or a new load when there was none yet or the last one failed. */
  load(): Attempt<T>;
  /** The latest load (started if there was none), failed or not; a new one after each retry (for `useSyncExternalStore`). */
  current(): Attempt<T>;
  /** Called when a new load starts and when one settles; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
};

/**
 * The module a failed `import()` names: Chromium says "Failed to fetch dynamically imported module: URL", Firefox
 * "error loading dynamically imported module: URL". Null when the message names none.
 */
export function failedModuleUrl(err: unknown): string | null {
  const message = err instanceof Error ? err.message : String(err);
  return /dynamically imported module:?\s+(\S+)/i.exec(message)?.[1] ?? null;
}

let fresh = 0;
/** `url` with a query no load has used yet. */
export function freshUrl(url: string): string {
  const u = new URL(url, globalThis.location?.href);
  u.searchParams.set('retry', String(++fresh));
  return u.href;
}

/**
 * Wraps an importer (`() => import('./x.ts')`) so that a failed load is retried; `pick` takes what is wanted from the
 * module (an export), so a retry under a fresh URL gives the same.
 */
export function retryingImport<M, T = M>(importer: () => Promise<M>, pick: (module: M) => T = (m) => m as unknown as T, soonMs = SOON_MS): RetryingImport<T> {
  let attempt: Attempt<T> | null = null;
  /** The URL the last failure named, loaded afresh from then on. */
  let failedUrl: string | null = null;
  const once = (): Promise<T> =>
    (failedUrl ? (import(/* @vite-ignore */ freshUrl(failedUrl)) as Promise<M>) : importer()).then(pick, (err: unknown) => {
      failedUrl = failedModuleUrl(err) ?? failedUrl;
      throw err;
    });
  const changes = new Listeners();
  const settled = (outcome: { status: 'fulfilled'; value: T } | { status: 'rejected'; reason: unknown }) => {
    Object.assign(attempt!, outcome);
    changes.emit();
  };
  const start = (): Attempt<T> => {
    const next: Attempt<T> = once()
      .catch(() => new Promise((resolve) => setTimeout(resolve, soonMs)).then(once))
      .then(
        (value) => {
          settled({ status: 'fulfilled', value });
          return value;
        },
        (reason: unknown) => {
          settled({ status: 'rejected', reason });
          throw reason;
        },
      );
    // The caller handles the failure; a load started by `online` has no caller, and its failure is only a state.
    next.catch(() => undefined);
    attempt = next;
    changes.emit();
    return next;
  };
  // Kept for the page's life: once the chunk is in, a retry finds nothing to do here.
  onImportRetry(() => {
    if (attempt?.status === 'rejected') start();
  });

  return {
    load: () => (attempt && attempt.status !== 'rejected' ? attempt : start()),
    current: () => attempt ?? start(),
    subscribe: (listener) => changes.add(listener),
  };
}
