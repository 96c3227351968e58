/** Where the outbox's rows live in IndexedDB: named apart from storage.ts so Sign out can empty it without loading idb. */
export const OUTBOX_DB_NAME = 'askdock-outbox';
export const OUTBOX_STORE = 'rows';
