import { wrap, type IDBPDatabase } from 'idb';
import { OutboxRow } from './machine.ts';
import { read } from '../shape.ts';
import { OUTBOX_DB_NAME, OUTBOX_STORE } from './db-name.ts';

/** What one atomic change writes, and what it hands back to the caller. */
export type StorageChange<T> = { put?: OutboxRow[]; remove?: string[]; result: T };

/**
 * Where outbox rows live (PRODUCT U10). `transact` reads every row and writes the change in ONE read-write
 * transaction: IndexedDB runs such transactions one after another across tabs, which is what makes the send
 * lease and "one row per question" hold when several tabs act at once.
 */
export interface OutboxStorage {
  readonly kind: 'indexeddb' | 'memory';
  all(): Promise<OutboxRow[]>;
  get(id: string): Promise<OutboxRow | undefined>;
  put(row: OutboxRow): Promise<void>;
  remove(id: string): Promise<void>;
  /** `change` must be synchronous: an await inside would let the transaction close under it. */
  transact<T>(change: (rows: ReadonlyMap<string, OutboxRow>) => StorageChange<T>): Promise<T>;
  close(): void;
}

export { OUTBOX_DB_NAME } from './db-name.ts';
const DB_VERSION = 1;
const STORE = OUTBOX_STORE;

/** Rows that no longer read (an older shape, a hand edit in devtools) are skipped rather than breaking the outbox. */
function readRow(raw: unknown): OutboxRow | undefined {
  return read(OutboxRow, raw) ?? undefined;
}

function rowMap(raws: readonly unknown[]): Map<string, OutboxRow> {
  const map = new Map<string, OutboxRow>();
  for (const raw of raws) {
    const row = readRow(raw);
    if (row) map.set(row.id, row);
  }
  return map;
}

/** Keeps rows in this tab only: the fallback when IndexedDB is missing (private modes, old engines) and in tests. */
export function createMemoryStorage(): OutboxStorage {
  const rows = new Map<string, unknown>();
  // Stores copies and reads them back through the schema, as the IndexedDB backend does.
  return {
    kind: 'memory',
    all: async () => [...rowMap([...rows.values()].map((r) => structuredClone(r))).values()],
    get: async (id) => readRow(structuredClone(rows.get(id))),
    put: async (row) => {
      rows.set(row.id, structuredClone(row));
    },
    remove: async (id) => {
      rows.delete(id);
    },
    transact: async (change) => {
      const c = change(rowMap([...rows.values()].map((r) => structuredClone(r))));
      for (const id of c.remove ?? []) rows.delete(id);
      for (const row of c.put ?? []) rows.set(row.id, structuredClone(row));
      return c.result;
    },
    close: () => {},
  };
}

/** Opens through the given factory (idb's `openDB` knows only the global one), then hands the database to idb. */
function openDatabase(factory: IDBFactory, name: string): Promise<IDBPDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open(name, DB_VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
    };
    req.onsuccess = () => resolve(wrap(req.result));
    req.onerror = () => reject(req.error ?? new Error(`cannot open IndexedDB "${name}"`));
    req.onblocked = () => reject(new Error(`IndexedDB "${name}" is blocked by another tab holding an older version`));
  });
}

export type StorageOptions = {
  /** Defaults to `globalThis.indexedDB`; absent means the in-memory fallback. */
  indexedDB?: IDBFactory | null;
  dbName?: string;
};

/**
 * The browser's outbox storage: IndexedDB (survives reload and a closed tab), or the in-memory fallback when
 * IndexedDB is missing or refuses to open. Opens lazily, so it can be made synchronously at startup.
 */
export function createOutboxStorage(options: StorageOptions = {}): OutboxStorage {
  const factory = options.indexedDB === undefined ? globalThis.indexedDB : options.indexedDB;
  if (!factory) return createMemoryStorage();
  const name = options.dbName ?? OUTBOX_DB_NAME;
  let fallback: OutboxStorage | null = null;
  let closed = false;
  let dbPromise: Promise<IDBPDatabase | null> | null = null;

  /** The open database, or null when IndexedDB would not open (the memory fallback takes the call). */
  const db = (): Promise<IDBPDatabase | null> => {
    if (closed) return Promise.reject(new Error('outbox storage is closed'));
    dbPromise ??= openDatabase(factory, name).then(
      (opened) => {
        // A newer version elsewhere asks us to step aside; the next call opens again.
        opened.onversionchange = () => {
          opened.close();
          dbPromise = null;
        };
        return opened;
      },
      () => {
        fallback = createMemoryStorage();
        return null;
      },
    );
    return dbPromise;
  };

  const storage: OutboxStorage = {
    get kind() {
      return fallback ? fallback.kind : 'indexeddb';
    },
    all: async () => {
      const opened = await db();
      return opened ? [...rowMap(await opened.getAll(STORE)).values()] : fallback!.all();
    },
    get: async (id) => {
      const opened = await db();
      return opened ? readRow(await opened.get(STORE, id)) : fallback!.get(id);
    },
    put: async (row) => {
      const opened = await db();
      // idb's one-call writes settle once the transaction is committed, not when the request succeeds.
      if (opened) await opened.put(STORE, row);
      else await fallback!.put(row);
    },
    remove: async (id) => {
      const opened = await db();
      if (opened) await opened.delete(STORE, id);
      else await fallback!.remove(id);
    },
    transact: async <T>(change: (rows: ReadonlyMap<string, OutboxRow>) => StorageChange<T>): Promise<T> => {
      const opened = await db();
      if (!opened) return fallback!.transact(change);
      const tx = opened.transaction(STORE, 'readwrite');
      let c: StorageChange<T>;
      try {
        c = change(rowMap(await tx.store.getAll()));
      } catch (err) {
        tx.abort();
        await tx.done.catch(() => {});
        throw err;
      }
      // Queued before anything is awaited, so the read and the writes are one transaction.
      const writes = [...(c.remove ?? []).map((id) => tx.store.delete(id)), ...(c.put ?? []).map((row) => tx.store.put(row))];
      // Settles on the transaction, not the requests: a write counts only once it is committed.
      await Promise.all([...writes, tx.done]);
      return c.result;
    },
    close: () => {
      closed = true;
      void dbPromise?.then((opened) => opened?.close());
    },
  };
  return storage;
}
