import { createElement, useSyncExternalStore, type ComponentType } from 'react';

export type Preloaded<P extends object> = ComponentType<P> & { ready: Promise<void> };

/**
 * A component whose code is a chunk of its own, fetched at once (beside the first render) rather than on first use.
 * Unlike `lazy`, once the chunk is in it renders in the same pass, never through a Suspense fallback; before that it
 * renders nothing. `ready` settles when the chunk is in (or failed), for whoever must not show data before it.
 */
export function preloaded<P extends object>(load: () => Promise<ComponentType<P>>): Preloaded<P> {
  let loaded: ComponentType<P> | null = null;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const ready = load().then(
    (component) => {
      loaded = component;
      for (const listener of listeners) listener();
    },
    () => {
      // A chunk that cannot be fetched leaves this part empty; the rest of the page keeps working.
    },
  );
  function PreloadedComponent(props: P) {
    const component = useSyncExternalStore(subscribe, () => loaded);
    return component ? createElement(component, props) : null;
  }
  return Object.assign(PreloadedComponent, { ready });
}
