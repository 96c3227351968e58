import type { ChatMessage } from '../../protocol/index.ts';
import { missingRow } from './shape.ts';
import type { RunRow, SessionRow, StoredQuestion } from './types.ts';

/** A stored value and its insertion number, the tie-break SQLite gets from its `n` column. */
export type Entry<T> = { value: T; n: number };

export const byNewestActivity = (a: Entry<SessionRow>, b: Entry<SessionRow>) =>
  (b.value.lastMessageAtMs ?? b.value.createdAtMs) - (a.value.lastMessageAtMs ?? a.value.createdAtMs) || b.n - a.n;
export const byHistoryOrder = (a: Entry<ChatMessage>, b: Entry<ChatMessage>) => a.value.seq - b.value.seq || a.n - b.n;
export const byCreated = (a: Entry<StoredQuestion>, b: Entry<StoredQuestion>) => a.value.createdAtMs - b.value.createdAtMs || a.n - b.n;
export const byExpiry = (a: Entry<StoredQuestion>, b: Entry<StoredQuestion>) =>
  (a.value.expiresAtMs ?? 0) - (b.value.expiresAtMs ?? 0) || a.n - b.n;
export const byStarted = (a: Entry<RunRow>, b: Entry<RunRow>) => a.value.startedAtMs - b.value.startedAtMs || a.n - b.n;

function isThenable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

export type UndoJournal = ReturnType<typeof createUndoJournal>;

/**
 * The memory store's transactions: every write inside one records how to undo itself, so a transaction that throws
 * undoes only its own writes (like a savepoint) and a group, an outer transaction held open across calls, undoes
 * everything until it ends.
 */
export function createUndoJournal() {
  const undos: Array<() => void> = [];
  let depth = 0;
  let grouped = false;
  let closed = false;
  let nextN = 1;

  function open(): void {
    if (closed) throw new Error('store: the memory store is closed');
  }
  function undoable(undo: () => void): void {
    if (depth > 0) undos.push(undo);
  }
  function put<K, V>(map: Map<K, V>, key: K, value: V): void {
    const had = map.has(key);
    const old = map.get(key);
    map.set(key, value);
    undoable(had ? () => map.set(key, old as V) : () => map.delete(key));
  }
  return {
    open,
    undoable,
    put,
    insert<T>(map: Map<string, Entry<T>>, kind: string, key: string, value: T): void {
      if (map.has(key)) throw new Error(`store: ${kind} "${key}" already exists`);
      put(map, key, { value, n: nextN++ });
    },
    replace<T>(map: Map<string, Entry<T>>, kind: string, key: string, value: T): void {
      const entry = map.get(key);
      if (!entry) throw missingRow(kind, key);
      put(map, key, { value, n: entry.n });
    },
    transaction<T>(fn: () => T): T {
      open();
      const mark = undos.length;
      depth++;
      try {
        const result = fn();
        if (isThenable(result)) throw new TypeError('Transaction function cannot return a promise');
        return result;
      } catch (error) {
        while (undos.length > mark) undos.pop()!();
        throw error;
      } finally {
        depth--;
        if (depth === 0) undos.length = 0;
      }
    },
    openUnit() {
      open();
      const mark = undos.length;
      depth++;
      const end = () => {
        depth--;
        if (depth === 0) undos.length = 0;
      };
      return {
        release: end,
        rollback() {
          while (undos.length > mark) undos.pop()!();
          end();
        },
      };
    },
    beginGroup(): void {
      open();
      if (depth > 0) throw new Error('store: beginGroup inside an open transaction');
      depth = 1;
      grouped = true;
    },
    commitGroup(): void {
      if (!grouped) throw new Error('store: commitGroup without beginGroup');
      grouped = false;
      depth = 0;
      undos.length = 0;
    },
    rollbackGroup(): void {
      if (!grouped) throw new Error('store: rollbackGroup without beginGroup');
      while (undos.length > 0) undos.pop()!();
      grouped = false;
      depth = 0;
    },
    close(): void {
      closed = true;
    },
  };
}
