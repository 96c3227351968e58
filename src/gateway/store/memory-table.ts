import { missingRow } from './shape.ts';
import type { Entry, UndoJournal } from './memory-journal.ts';

/**
 * One table of the memory store: rows by key, each with its insertion number (SQLite's `n`), written through the undo
 * journal. What goes in and what comes out is `copy`'s own object, so no caller holds a stored row.
 */
export function memoryTable<T>(
  journal: Pick<UndoJournal, 'open' | 'insert' | 'replace'>,
  kind: string,
  keyOf: (row: T) => string,
  copy: (row: T) => T,
) {
  const { open } = journal;
  const rows = new Map<string, Entry<T>>();
  return {
    rows,
    insert(row: T): void {
      open();
      journal.insert(rows, kind, keyOf(row), copy(row));
    },
    get(key: string): T | undefined {
      open();
      const entry = rows.get(key);
      return entry ? copy(entry.value) : undefined;
    },
    replace(row: T): void {
      open();
      journal.replace(rows, kind, keyOf(row), copy(row));
    },
    /** A row changed in place of the stored one; a missing row is an error, as for an UPDATE that changes none. */
    patch(key: string, change: (row: T) => T): void {
      open();
      const entry = rows.get(key);
      if (!entry) throw missingRow(kind, key);
      journal.replace(rows, kind, key, change(entry.value));
    },
    /** The rows `keep` keeps, in `order`. */
    list(keep: (row: T) => boolean, order: (a: Entry<T>, b: Entry<T>) => number): T[] {
      open();
      return [...rows.values()].filter((e) => keep(e.value)).sort(order).map((e) => copy(e.value));
    },
  };
}
