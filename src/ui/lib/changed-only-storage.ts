import type { StateStorage } from 'zustand/middleware';

/**
 * `storage`, skipping a write of the value it already holds. zustand's `persist` writes the whole store on every
 * set, a set that changes nothing included (dropping a draft already dropped, as an answer's result does after its
 * event); localStorage sends each write on to the browser. Compared with what storage holds, not with this tab's
 * last write, so a value another tab wrote meanwhile is still replaced.
 */
export function changedOnlyStorage(storage: () => Storage): () => StateStorage {
  return () => ({
    getItem: (key) => storage().getItem(key),
    setItem: (key, value) => {
      if (storage().getItem(key) !== value) storage().setItem(key, value);
    },
    removeItem: (key) => storage().removeItem(key),
  });
}
