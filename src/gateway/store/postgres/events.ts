import { toEvent, type EventDbRow } from '../rows.ts';
import { toJson } from '../shape.ts';
import type { Store } from '../types.ts';
import { rowsOf, type PgQueries } from './queries.ts';

type EventMethods = Pick<Store, 'appendEvent' | 'eventsAfter' | 'oldestEventSeq' | 'latestSeq' | 'pruneEvents'>;

/**
 * R1/R2 on PostgreSQL: the event log every gateway of the database numbers from one sequence. An event appended in a
 * transaction is held and numbered as it commits (transactions.ts); `channel` tells every gateway of each new seq.
 */
export function eventMethods(db: PgQueries, channel: string): EventMethods {
  const { pg, q, committed, numbering } = db;
  const events: EventMethods = {
    async appendEvent(e, payloadJson) {
      const json = payloadJson ?? toJson(e.payload);
      // A chat event's message seq is read from its message, which is numbered with it at commit (transactions.ts).
      const messageId = e.event === 'chat' ? ((e.payload as { message?: { id?: unknown } }).message?.id ?? null) : null;
      const audience = toJson(e.audience);
      const message = typeof messageId === 'string' ? messageId : null;
      // In a transaction: held, and written as it commits with its real seq (transactions.ts).
      if (pg.inTransaction()) return numbering().hold({ event: e.event, payload: json, audience, atMs: e.atMs, messageId: message });
      // Alone: takes the next seq and tells every gateway in one statement.
      const r = await q(
        `WITH s AS (UPDATE askdock_seq SET value = value + 1 WHERE id = 1 RETURNING value)
         INSERT INTO events (seq, event, payload, audience, at_ms, message_id) SELECT value, $1, $2, $3, $4, $5 FROM s
         RETURNING seq, pg_notify($6, seq::text)`,
        [e.event, json, audience, e.atMs, message, channel],
      );
      return Number(r.rows[0].seq);
    },
    async eventsAfter(cursor, limit) {
      const take = Math.max(0, Math.trunc(limit));
      const rows = rowsOf<EventDbRow & { message_seq: number | null }>(
        await committed(
          `SELECT e.seq, e.event, e.payload, e.audience, e.at_ms, m.seq AS message_seq FROM events e LEFT JOIN messages m ON m.id = e.message_id
           WHERE e.seq > $1 ORDER BY e.seq LIMIT $2`,
          [cursor, take],
        ),
      );
      // What goes out to anyone is on disk first (another gateway's commit may be visible a moment before, transactions.ts).
      if (rows.length > 0) await pg.flushed(Number(rows[rows.length - 1].seq));
      return rows.map((r) => {
        const ev = toEvent(r);
        const message = (ev.payload as { message?: { seq?: number } }).message;
        if (r.message_seq !== null && message) message.seq = Number(r.message_seq);
        return ev;
      });
    },
    async oldestEventSeq() {
      const oldest = (await committed(`SELECT MIN(seq) AS seq FROM events`)).rows[0].seq as number | null;
      if (oldest !== null) return oldest;
      const latest = await events.latestSeq();
      return latest === 0 ? 0 : latest + 1;
    },
    async latestSeq() {
      const latest = Number((await committed(`SELECT value FROM askdock_seq WHERE id = 1`)).rows[0].value);
      // A cursor or snapshot handed out counts only what is on disk (inside a transaction: its own reads, kept to it).
      if (!pg.inTransaction()) await pg.flushed(latest);
      return latest;
    },
    async pruneEvents(beforeMs, keepAtLeast) {
      return db.current().transaction(async () => {
        const keep = Math.max(0, Math.trunc(keepAtLeast));
        let below = Number.POSITIVE_INFINITY;
        if (keep > 0) {
          const nth = (await q(`SELECT seq FROM events ORDER BY seq DESC LIMIT 1 OFFSET $1`, [keep - 1])).rows[0];
          if (!nth) return 0;
          below = Number(nth.seq);
        }
        // Drop only a prefix, so the kept events have no holes even if clocks stepped back.
        const firstRecent = (await q(`SELECT seq FROM events WHERE at_ms >= $1 ORDER BY seq LIMIT 1`, [beforeMs])).rows[0];
        if (firstRecent) below = Math.min(below, Number(firstRecent.seq));
        if (below === Number.POSITIVE_INFINITY) below = (await events.latestSeq()) + 1;
        let dropped = (await q(`DELETE FROM events WHERE seq < $1`, [below])).rowCount;
        // This transaction's own events (held until it commits, the newest of all) go only when none must be kept: a
        // hole where each was, as in a store that numbers at once.
        if (keep === 0 && below > (await events.latestSeq()) && pg.inTransaction()) dropped += numbering().drop(beforeMs);
        return dropped;
      });
    },
  };
  return events;
}
