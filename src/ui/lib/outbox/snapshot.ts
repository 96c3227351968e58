import { Listeners } from '../../../lib/listeners.ts';
import type { OutboxRow } from './machine.ts';

/** What a person can see of a row: lease renewals alone re-render nothing. */
const visible = (row: OutboxRow) => JSON.stringify({ ...row, sendingBy: undefined, leaseExpiresAtMs: undefined });

export interface OutboxSnapshot {
  row(id: string): OutboxRow | undefined;
  has(id: string): boolean;
  /** Oldest first; the same array until something changes (fit for useSyncExternalStore). */
  all(): readonly OutboxRow[];
  /** One session's rows; the same array while that session's rows stay the same. */
  forSession(sessionKey: string): readonly OutboxRow[];
  /** The newest row answering the question. */
  forQuestion(questionId: string): OutboxRow | undefined;
  /** Takes the stored row; true when it differs from the cached one in what a person sees. */
  store(row: OutboxRow): boolean;
  /** True when the row was cached. */
  drop(id: string): boolean;
  /** Tells subscribers; call after `store`/`drop` reported a visible change. */
  notify(): void;
  subscribe(listener: () => void): () => void;
  clear(): void;
}

/** This tab's copy of the stored rows, with stable arrays for rendering (the storage stays the truth). */
export function createSnapshot(): OutboxSnapshot {
  const cache = new Map<string, OutboxRow>();
  const listeners = new Listeners();
  let allRows: readonly OutboxRow[] | null = null;
  const bySession = new Map<string, readonly OutboxRow[]>();
  /** Sessions whose list was rebuilt since the last change. */
  const fresh = new Set<string>();

  const all = (): readonly OutboxRow[] =>
    (allRows ??= [...cache.values()].sort((a, b) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id)));

  return {
    row: (id) => cache.get(id),
    has: (id) => cache.has(id),
    all,
    forSession(sessionKey) {
      const prev = bySession.get(sessionKey);
      if (prev && fresh.has(sessionKey)) return prev;
      const list = all().filter((r) => r.sessionKey === sessionKey);
      // Same rows as before: hand back the same array, so a change in another session re-renders nothing here.
      const same = prev !== undefined && prev.length === list.length && prev.every((r, i) => r === list[i]);
      if (!same) bySession.set(sessionKey, list);
      fresh.add(sessionKey);
      return same ? prev : list;
    },
    forQuestion(questionId) {
      let found: OutboxRow | undefined;
      for (const row of all()) if (row.questionId === questionId) found = row;
      return found;
    },
    store(row) {
      const cached = cache.get(row.id);
      if (!cached || visible(cached) !== visible(row)) {
        cache.set(row.id, row);
        return true;
      }
      // Keep the cached object when nothing changed, so the arrays built from it stay equal.
      if (JSON.stringify(cached) !== JSON.stringify(row)) cache.set(row.id, row);
      return false;
    },
    drop: (id) => cache.delete(id),
    notify() {
      allRows = null;
      fresh.clear();
      listeners.emit();
    },
    subscribe: (listener) => listeners.add(listener),
    clear: () => listeners.clear(),
  };
}
