/** The part of a zustand `persist` store that reading storage again needs. */
type Rehydratable = { persist: { rehydrate(): Promise<void> | void } };

/**
 * Reads a localStorage-persisted store again whenever another tab writes its key, so tabs of one conversation
 * stay in step (U10). The `storage` event never fires in the tab that wrote, so nothing loops.
 */
export function followOtherTabs(store: Rehydratable, key: string): () => void {
  if (typeof window === 'undefined') return () => {};
  const onStorage = (e: StorageEvent) => {
    // A null key is localStorage.clear() in another tab: that emptied this store's data too.
    if (e.key === key || e.key === null) void store.persist.rehydrate();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
