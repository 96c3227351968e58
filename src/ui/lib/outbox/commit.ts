import { transition, type OutboxEvent, type OutboxRow } from './machine.ts';
import { released } from './lease.ts';
import type { OutboxSnapshot } from './snapshot.ts';
import type { OutboxStorage } from './storage.ts';

export type Commit = { before: OutboxRow | undefined; after: OutboxRow | null | undefined };

export type CommitOptions = {
  storage: OutboxStorage;
  snapshot: OutboxSnapshot;
  tabId: string;
  now: () => number;
  disposed: () => boolean;
  /** A row was written (not a quiet lease renewal): other tabs should read it again. */
  onWritten: (id: string) => void;
  /** A row was removed; `row` is what it was. */
  onRemoved: (row: OutboxRow) => void;
};

export interface Committer {
  /** Reads the stored row, applies `change` and writes it back in one transaction; the snapshot follows the stored truth. */
  commit(id: string, change: (stored: OutboxRow) => OutboxRow | null, opts?: { quiet?: boolean }): Promise<Commit>;
  /** Commits the state machine's step for `event`; `release` also drops this tab's send lease. */
  dispatch(id: string, event: OutboxEvent, opts?: { release?: boolean }): Promise<Commit>;
}

export function createCommitter(options: CommitOptions): Committer {
  const { storage, snapshot, tabId, now } = options;

  async function commit(id: string, change: (stored: OutboxRow) => OutboxRow | null, opts: { quiet?: boolean } = {}): Promise<Commit> {
    const res = await storage.transact<Commit>((rows) => {
      const before = rows.get(id);
      if (!before) return { result: { before, after: undefined } };
      const after = change(before);
      if (after === before) return { result: { before, after } };
      if (after === null) return { remove: [id], result: { before, after } };
      return { put: [after], result: { before, after } };
    });
    if (options.disposed()) return res;
    if (res.after === undefined || res.after === null) {
      if (snapshot.drop(id)) snapshot.notify();
    } else if (snapshot.store(res.after)) snapshot.notify();
    if (res.after === null && res.before) options.onRemoved(res.before);
    else if (res.after && res.after !== res.before && !opts.quiet) options.onWritten(id);
    return res;
  }

  const dispatch = (id: string, event: OutboxEvent, opts?: { release?: boolean }) =>
    commit(id, (stored) => {
      const next = transition(stored, event, now());
      if (next === null || !opts?.release) return next;
      const free = released(next, tabId);
      return free === stored ? stored : free;
    });

  return { commit, dispatch };
}
