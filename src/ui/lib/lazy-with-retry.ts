import { createElement, use, useSyncExternalStore, type ComponentType } from 'react';
import { retryingImport } from './retrying-import.ts';

export type LazyWithRetry<P extends object> = ComponentType<P> & {
  /** Starts fetching the chunk now rather than on first render. */
  preload(): void;
};

/**
 * `React.lazy` for a component in a chunk of its own, except that a chunk that failed to load is fetched again (see
 * retrying-import.ts) rather than failing for good. Render it inside a `LazyBoundary`: while the chunk loads it suspends,
 * and when it cannot be loaded it throws to the boundary, which tries again when failed chunks are retried.
 * Once the chunk is in, it renders in the same pass, never through the Suspense fallback again.
 */
export function lazyWithRetry<P extends object>(importer: () => Promise<ComponentType<P>>, options?: { soonMs?: number }): LazyWithRetry<P> {
  const source = retryingImport(importer, options);
  function LazyWithRetry(props: P) {
    // Like `lazy`, the first render starts the load (before reading the state, so the read sees it started).
    if (source.state().status === 'idle') void source.load();
    const state = useSyncExternalStore(source.subscribe, source.state, source.state);
    if (state.status === 'failed') throw state.error;
    const component = state.status === 'loaded' ? state.value : use(state.status === 'loading' ? state.promise : source.load());
    return createElement(component, props);
  }
  return Object.assign(LazyWithRetry, { preload: () => void source.load() });
}
