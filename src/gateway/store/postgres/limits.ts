/** D1/D5: how the gateway's PostgreSQL connections are sized and bounded. */

/** Per session: no statement, lock wait or idle transaction can hold the gateway (or another gateway) for long. */
export const SESSION_LIMITS = { statement_timeout: 30_000, lock_timeout: 20_000, idle_in_transaction_session_timeout: 30_000 };
/**
 * A connection whose network went silent (a peer gone without a word, a dropped route) would otherwise wait forever:
 * TCP keepalives, and an answer awaited at most this long (past `statement_timeout`, so a silent network is what hits it;
 * a round trip of several statements each waiting out a lock could too), after which the connection is dropped
 * (`dropIfSilent`) or, idle in the pool, replaced.
 */
export const SILENT_NETWORK = { keepAlive: true, keepAliveInitialDelayMillis: 10_000, query_timeout: 45_000 };
/** How often the LISTEN connection, otherwise idle, is asked to answer; one that has not answered by the next time is replaced. */
export const LISTEN_CHECK_MS = 15_000;
/** At most how many transactions (groups of units) a gateway runs at once on PostgreSQL (D5), each on a connection of its own. */
export const MAX_LANES = 16;
/** The lanes' connections and some for reads outside them; three gateways stay well inside PostgreSQL's 100 connections. */
export const POOL_SIZE = MAX_LANES + 8;

/**
 * How many lanes a gateway runs, from the database's round trip as measured when it starts. Lanes are there to keep
 * working while the network carries a lane's statements: one unit after another in a lane costs a few round trips each,
 * so a far database needs many lanes to keep the gateway busy. A near one does not, and there every lane more means
 * smaller groups, so more commits for the same work, each costing both sides CPU: two lanes up to a quarter of a
 * millisecond, then one more per eighth of a millisecond, up to MAX_LANES (2 ms and more).
 */
export function lanesFor(roundTripMs: number): number {
  if (!Number.isFinite(roundTripMs)) return MAX_LANES;
  return Math.min(MAX_LANES, Math.max(2, Math.ceil(roundTripMs * 8)));
}
