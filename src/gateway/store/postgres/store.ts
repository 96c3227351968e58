import { lanesFor, Postgres } from './pool.ts';
import { migrate } from './migrations.ts';
import { pgQueries, type Unwaited } from './queries.ts';
import { eventMethods } from './events.ts';
import { sessionMethods } from './sessions.ts';
import { messageMethods } from './messages.ts';
import { questionMethods } from './questions.ts';
import { postgresPendingTallies } from '../pending-tally.ts';
import { runMethods } from './runs.ts';
import { searchPostgres } from './search.ts';
import { secretMethods } from './secrets.ts';
import { grantMethods } from './grants.ts';
import { auditMethods } from './audit.ts';
import { pushMethods, SubscriptionCache } from './push.ts';
import { SeqRange } from './numbering.ts';
import { Transactions } from './transactions.ts';
import { clusterMethods, isDeadlock, type SharedStore } from './cluster.ts';
import { channelFor, redactUrl, schemaOf } from './names.ts';
import { postgresRouteMethods } from './routing.ts';
import { ContextSlot } from '../../infra/context.ts';

export type { SharedStore } from './cluster.ts';
export { isDeadlock, isSharedStore } from './cluster.ts';
export { channelFor, redactUrl, schemaOf } from './names.ts';

/**
 * D1: opens (creating and migrating when needed) the gateway's tables in the PostgreSQL database at `url`. Each part of
 * the Store has a file of its own (events.ts, sessions.ts, messages.ts, questions.ts, runs.ts, secrets.ts, push.ts,
 * grants.ts, audit.ts, search.ts, cluster.ts), all reaching the database through the same queries (queries.ts).
 */
export async function openPostgresStore(url: string): Promise<SharedStore> {
  const where = redactUrl(url);
  const channel = channelFor(schemaOf(url));
  const pg = new Postgres(url, channel);
  // Hears LISTEN answer for the first time; a change made in a transaction counts from when that ends.
  const pushCache = new SubscriptionCache(pg, channel, () => (pg.inTransaction() ? current().whenEnded() : null));
  try {
    await migrate(pg, where);
  } catch (err) {
    await pg.close();
    throw new Error(`askdock: cannot use PostgreSQL at ${where}: ${(err as Error).message}`);
  }
  const range = new SeqRange();
  const unwaited: Unwaited = new ContextSlot('askdock.unwaited');
  // Lanes: transactions (each a group of units) this gateway runs side by side, each on a connection of its own (D5), as
  // many as the database's distance calls for.
  let laneCount: number;
  try {
    laneCount = lanesFor(await pg.roundTripMs());
  } catch (err) {
    await pg.close();
    throw new Error(`askdock: cannot use PostgreSQL at ${where}: ${(err as Error).message}`);
  }
  const lanes = Array.from({ length: laneCount }, () => new Transactions(pg, channel, range));
  const db = pgQueries(pg, lanes, unwaited);
  const { q, insert, current, numbering, locking } = db;

  const store: SharedStore = {
    shared: true,
    transaction: (fn) => current().transaction(fn),
    beginGroup: () => lanes[0].beginGroup(),
    commitGroup: () => lanes[0].commitGroup(),
    rollbackGroup: () => lanes[0].rollbackGroup(),
    lanes: laneCount,
    lane(i) {
      const t = lanes[i];
      return {
        transaction: (fn) => (pg.current() ? current().transaction(fn) : t.transaction(fn)),
        beginGroup: () => t.beginGroup(),
        commitGroup: () => t.commitGroup(),
        rollbackGroup: () => t.rollbackGroup(),
        // Its unit waits for the audit log's lock, held by no lane of this gateway: another gateway's transaction has it.
        waitsForLock: () => t.auditLock === 'asked' && !lanes.some((o) => o.auditLock === 'held'),
        holdsLock: () => t.auditLock === 'held',
        doomed: () => t.doomed(),
      };
    },

    ...eventMethods(db, channel),
    ...sessionMethods(db),
    ...messageMethods(db),
    ...questionMethods(db),
    ...runMethods(db),
    ...secretMethods(q, insert, locking),
    ...pushMethods(q, pushCache),
    ...grantMethods(q, insert),
    ...auditMethods(q, () => (pg.inTransaction() ? current() : undefined)),

    search(scope) {
      return searchPostgres(q, scope);
    },
    pendingTallies(sessionKey) {
      return postgresPendingTallies(q, sessionKey);
    },

    async getMeta(key) {
      // In a transaction the key is locked first, even while it has no row: two gateways starting on a new database
      // that each read a missing value and set it take turns, and the second reads the first's (D2).
      if (pg.inTransaction()) await q(`SELECT pg_advisory_xact_lock(hashtext('askdock.meta:' || $1))`, [key]);
      const r = (await q(`SELECT value FROM meta WHERE key = $1`, [key])).rows[0];
      return r ? String(r.value) : undefined;
    },
    async setMeta(key, value) {
      await q(`INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [key, value]);
    },

    ...clusterMethods(pg),
    ...postgresRouteMethods(q, db.sessionsFirst),
    readCommitted: (fn) => unwaited.run(true, fn),
    readsAfter: (before, fn) => unwaited.run(before, fn),
    reserveSeq: () => (pg.inTransaction() ? numbering().reserve() : null),
    settledSeq: (seq) => range.settledSeq(seq),
    mustRetry: isDeadlock,

    async close() {
      for (const t of lanes) t.closing();
      pg.close();
    },
  };
  return store;
}
