/**
 * Several gateways in one process on one PostgreSQL database (tests, a supervisor running two): a gateway keeps its
 * turn's group transaction open across callbacks (hub.ts), holding the `askdock_seq` row lock, while the thread
 * blocks on every statement until PostgreSQL answers (bridge.ts). A second gateway's statement waiting for that lock
 * would block the very thread that has to commit it. So at most one store per database holds an open transaction in
 * this process, and before any other store of that database runs a statement that may wait for a lock, the holder
 * commits its group early (it carries on in a new transaction): the two take turns instead of waiting on each other.
 * Plain reads never wait in PostgreSQL, so they run as they are and see only what was committed.
 */
export interface YieldingHolder {
  /** Commits the open group now; the group goes on in a new transaction at its next write. */
  yieldGroup(): void;
}

const holders = new Map<string, YieldingHolder>();

/** A statement that may wait for a lock: anything but a plain SELECT (writes, `FOR UPDATE`, advisory locks, BEGIN's batch). */
export function mayWait(sql: string): boolean {
  return !/^\s*SELECT\b/i.test(sql) || /\bFOR\s+(UPDATE|SHARE|NO KEY UPDATE|KEY SHARE)\b|pg_advisory/i.test(sql);
}

/** Before a statement of `me` (undefined while a store is still opening) on database `key`. */
export function claim(key: string, me: YieldingHolder | undefined): void {
  const holder = holders.get(key);
  if (holder && holder !== me) holder.yieldGroup();
}

export function holding(key: string, me: YieldingHolder): void {
  holders.set(key, me);
}

export function released(key: string, me: YieldingHolder): void {
  if (holders.get(key) === me) holders.delete(key);
}

/** What tells two stores apart: the server, the database and the schema (not how the URL spells them). */
export function databaseKey(url: string, database: string, schema: string): string {
  let server = url;
  try {
    const u = new URL(url);
    server = `${u.hostname}:${u.port || '5432'}`;
  } catch {
    // a URL pg accepted but URL does not: the text itself
  }
  return `${server}/${database}/${schema}`;
}
