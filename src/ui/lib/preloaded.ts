import { createElement, useSyncExternalStore, type ComponentType } from 'react';
import { retryingImport } from './retrying-import.ts';

export type Preloaded<P extends object> = ComponentType<P> & { ready: Promise<void> };

/**
 * A component whose code is a chunk of its own, fetched at once (beside the first render) rather than on first use.
 * Unlike `lazy`, once the chunk is in it renders in the same pass, never through a Suspense fallback; before that it
 * renders nothing. `ready` settles when the chunk is in (or its first load failed), for whoever must not show data
 * before it. A chunk that failed is fetched again like any other (retrying-import.ts) and shows up once it is in.
 */
export function preloaded<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): Preloaded<P> {
  const source = retryingImport(load, pick);
  const ready = source.load().then(
    () => undefined,
    () => undefined,
  );
  // The component once it is in (a load settles in place, so the load itself would not tell React anything changed).
  const loaded = () => {
    const attempt = source.current();
    return attempt.status === 'fulfilled' ? attempt.value : null;
  };
  function PreloadedComponent(props: P) {
    const component = useSyncExternalStore(source.subscribe, loaded);
    return component && createElement(component, props);
  }
  return Object.assign(PreloadedComponent, { ready });
}
