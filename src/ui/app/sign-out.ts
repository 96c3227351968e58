import { DRAFTS_STORAGE_KEY, LINK_PAGE_STORAGE_KEY } from '../features/questions/stores/drafts.ts';
import { SKIPS_STORAGE_KEY } from '../features/questions/stores/skips.ts';
import { OUTBOX_DB_NAME, OUTBOX_STORE } from '../lib/outbox/db-name.ts';
import { forgetToken } from '../lib/token.ts';

/** What this browser keeps of the person signed in, besides the token: their drafts and skips (localStorage). */
const PERSON_KEYS = [DRAFTS_STORAGE_KEY, LINK_PAGE_STORAGE_KEY, SKIPS_STORAGE_KEY];

/**
 * Empties the outbox's rows (answers and messages not yet sent), without making the database where there is none.
 * Settles either way: a browser that refuses IndexedDB holds no rows past the tab.
 */
export function emptyOutbox(factory: IDBFactory | undefined = globalThis.indexedDB): Promise<void> {
  return new Promise((resolve) => {
    if (!factory) return resolve();
    const req = factory.open(OUTBOX_DB_NAME);
    // No database yet: nothing to empty, and none is made (the abort fails the open).
    req.onupgradeneeded = () => req.transaction?.abort();
    req.onerror = () => resolve();
    req.onblocked = () => resolve();
    req.onsuccess = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(OUTBOX_STORE)) {
        db.close();
        return resolve();
      }
      const tx = db.transaction(OUTBOX_STORE, 'readwrite');
      tx.objectStore(OUTBOX_STORE).clear();
      tx.oncomplete = tx.onerror = tx.onabort = () => {
        db.close();
        resolve();
      };
    };
  });
}

/**
 * Sign out on a shared machine leaves nothing of the person behind: the token, and what would otherwise be sent or shown
 * as the next person who signs in here (the outbox's unsent answers and messages, the drafts, the skips).
 */
export async function signOut(): Promise<void> {
  forgetToken();
  await emptyOutbox();
  // Synchronous up to the reload, so no store of this page writes its key back in between.
  for (const key of PERSON_KEYS) localStorage.removeItem(key);
  window.location.reload();
}
