import { useSyncExternalStore } from 'react';

const QUERY = '(max-width: 639.98px)';

function media(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null;
}

/** Narrow screens (< 640 px) stack a multi-question prompt as cards (U12). */
export function useNarrow(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = media();
      list?.addEventListener('change', notify);
      return () => list?.removeEventListener('change', notify);
    },
    () => media()?.matches ?? false,
  );
}
