import { createElement, use, useSyncExternalStore, type ComponentType } from 'react';
import { retryingImport } from './retrying-import.ts';

export type LazyWithRetry<P extends object> = ComponentType<P> & {
  /** Starts fetching the chunk now rather than on first render. */
  preload(): void;
};

/**
 * `React.lazy` for a component in a chunk of its own, except that a chunk that failed to load is fetched again (see
 * retrying-import.ts) rather than failing for good. Render it inside a `LazyBoundary`: while the chunk loads it suspends,
 * and when it cannot be loaded it throws to the boundary, which renders it again when failed chunks are retried.
 */
export function lazyWithRetry<M, P extends object>(importer: () => Promise<M>, pick: (module: M) => ComponentType<P>, soonMs?: number): LazyWithRetry<P> {
  const chunk = retryingImport(importer, pick, soonMs);
  // Like `lazy`, the first render starts the load.
  const LazyWithRetry = (props: P) => createElement(use(useSyncExternalStore(chunk.subscribe, chunk.current, chunk.current)), props);
  return Object.assign(LazyWithRetry, { preload: chunk.load });
}
