import { OutboxRow } from './machine.ts';

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

export const OUTBOX_DB_NAME = 'askdock-outbox';
const DB_VERSION = 1;
const STORE = 'rows';
/** Stands for "IndexedDB would not open": the call goes to the in-memory fallback instead. */
const NONE: unique symbol = Symbol('no database');

/** Rows that no longer read (an older shape, a hand edit in devtools) are skipped rather than breaking the outbox. */
function readRow(raw: unknown): OutboxRow | undefined {
  const parsed = OutboxRow.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
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

function openDatabase(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open(name, DB_VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
    };
    req.onsuccess = () => resolve(req.result);
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
  let dbPromise: Promise<IDBDatabase | null> | null = null;

  const db = (): Promise<IDBDatabase | null> => {
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

  const withStore = async <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T | typeof NONE> => {
    const opened = await db();
    if (!opened) return NONE;
    return new Promise<T>((resolve, reject) => {
      const tx = opened.transaction(STORE, mode);
      const req = work(tx.objectStore(STORE));
      // Settles on the transaction, not the request: a write counts only once it is committed.
      tx.oncomplete = () => resolve(req.result);
      tx.onabort = () => reject(tx.error ?? req.error ?? new Error('outbox transaction aborted'));
    });
  };

  const storage: OutboxStorage = {
    get kind() {
      return fallback ? fallback.kind : 'indexeddb';
    },
    all: async () => {
      const raws = await withStore('readonly', (s) => s.getAll());
      return raws === NONE ? fallback!.all() : [...rowMap(raws).values()];
    },
    get: async (id) => {
      const raw = await withStore('readonly', (s) => s.get(id));
      return raw === NONE ? fallback!.get(id) : readRow(raw);
    },
    put: async (row) => {
      const r = await withStore('readwrite', (s) => s.put(row));
      if (r === NONE) await fallback!.put(row);
    },
    remove: async (id) => {
      const r = await withStore('readwrite', (s) => s.delete(id));
      if (r === NONE) await fallback!.remove(id);
    },
    transact: async <T>(change: (rows: ReadonlyMap<string, OutboxRow>) => StorageChange<T>): Promise<T> => {
      const opened = await db();
      if (!opened) return fallback!.transact(change);
      return new Promise<T>((resolve, reject) => {
        const tx = opened.transaction(STORE, 'readwrite');
        const store = tx.objectStore(STORE);
        let result: { value: T } | null = null;
        const read = store.getAll();
        read.onsuccess = () => {
          let c: StorageChange<T>;
          try {
            c = change(rowMap(read.result));
          } catch (err) {
            tx.abort();
            reject(err);
            return;
          }
          for (const id of c.remove ?? []) store.delete(id);
          for (const row of c.put ?? []) store.put(row);
          result = { value: c.result };
        };
        tx.oncomplete = () => (result ? resolve(result.value) : reject(new Error('outbox transaction ended without a result')));
        tx.onabort = () => reject(tx.error ?? new Error('outbox transaction aborted'));
      });
    },
    close: () => {
      closed = true;
      void dbPromise?.then((opened) => opened?.close());
    },
  };
  return storage;
}
