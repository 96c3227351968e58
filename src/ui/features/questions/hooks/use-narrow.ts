import { useSyncExternalStore } from 'react';

const QUERY = '(max-width: 639.98px)';

// One list for the page: `matchMedia` builds and evaluates a new one on every call, and the panel renders on every key.
// (Kept per `matchMedia` function, so a replaced one, as in tests, is asked afresh.)
let cached: { from: typeof window.matchMedia; list: MediaQueryList; matches: boolean } | undefined;
function media() {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return null;
  if (cached?.from !== window.matchMedia) {
    const list = window.matchMedia(QUERY);
    cached = { from: window.matchMedia, list, matches: list.matches };
  }
  return cached;
}

function subscribe(notify: () => void) {
  const current = media();
  const onChange = (event: MediaQueryListEvent) => {
    current!.matches = event.matches;
    notify();
  };
  current?.list.addEventListener('change', onChange);
  return () => current?.list.removeEventListener('change', onChange);
}
const snapshot = () => media()?.matches ?? false;

/** Narrow screens (< 640 px) stack a multi-question prompt as cards (U12). */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, snapshot, () => false);
}
