import type { QuestionStatus } from '../../../protocol/index.ts';
import {
  OPEN_QUESTION,
  SESSION_COLUMNS,
  questionColumns,
  runColumns,
  toEvent,
  toMessage,
  toQuestion,
  toRun,
  toSession,
  type EventDbRow,
  type MessageDbRow,
  type RunDbRow,
  type SessionDbRow,
} from '../rows.ts';
import { missingRow, shapeMessage, shapeSessionRow, toJson } from '../shape.ts';
import type { IdempotentResult, Store } from '../types.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { lanesFor, Postgres, type QueryResult } from './pool.ts';
import { migrate } from './migrations.ts';
import { searchPostgres } from './search.ts';
import { secretMethods } from './secrets.ts';
import { grantMethods } from './grants.ts';
import { auditMethods } from './audit.ts';
import { pushMethods, SubscriptionCache } from './push.ts';
import { SeqRange } from './numbering.ts';
import { Transactions } from './transactions.ts';
import { clusterMethods, isDeadlock, type SharedStore } from './cluster.ts';
import { channelFor, redactUrl, schemaOf } from './names.ts';
import { latestPrivilegedPostgres } from '../latest-privileged.ts';
import { postgresRouteMethods } from './routing.ts';

export type { SharedStore } from './cluster.ts';
export { isDeadlock, isSharedStore } from './cluster.ts';
export { channelFor, redactUrl, schemaOf } from './names.ts';

const MESSAGE_COLUMNS = `id, session_key, seq, role, text, author_id, run_id, reply_to, created_at_ms`;
const RUN_COLUMNS = `run_id, session_key, agent_id, recovery, started_at_ms, ended_at_ms, stop_reason, phase, trigger_message_id,
  parent_run_id, superseded_at_ms, streaming_message_id`;

const rowsOf = <T>(r: QueryResult) => r.rows as T[];

/** D1: opens (creating and migrating when needed) the gateway's tables in the PostgreSQL database at `url`. */
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
  /** What reads outside a transaction wait for instead of every open lane: nothing (`true`), or what `before` returns. */
  const unwaited = new AsyncLocalStorage<true | (() => Promise<unknown> | null)>();
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
  /**
   * Outside a transaction a statement first waits for the gateway's transactions open now to end: it reads everything
   * the units before it wrote (a client that sends, then reads, sees what it sent), and only what is committed.
   */
  const q = async (sql: string, params?: unknown[], guard = false) => {
    if (!pg.inTransaction()) {
      const wait = unwaited.getStore();
      const instead = wait === undefined || wait === true ? wait : wait();
      if (instead === undefined || instead === null) await Promise.all(lanes.map((t) => t.whenEnded()));
      else if (instead !== true) await instead;
    }
    return await pg.query(sql, params, guard);
  };
  const insert = (sql: string, params?: unknown[]) => q(sql, params, true);
  /** A write of exactly one row: in a transaction possibly sent with its next statement (Postgres.writeOne). */
  const writeOne = async (sql: string, params: unknown[], missing: () => Error) => {
    if (pg.inTransaction()) return await pg.writeOne(sql, params, missing);
    if ((await q(sql, params)).rowCount !== 1) throw missing();
  };
  /** Reads of committed events and seqs, which need no such wait: seqs are visible only in order (transactions.ts). */
  const committed = (sql: string, params?: unknown[]) => pg.query(sql, params);

  /** The transaction the running code is inside, else the first lane's (an outer transaction, or a unit of its group). */
  const current = () => (pg.current() as Transactions | undefined) ?? lanes[0];
  const numbering = () => current().numbering;
  /** Inside a transaction, a row read to be changed is locked as it is read, so a race between gateways is decided here (D2). */
  const locking = () => (pg.inTransaction() ? ' FOR UPDATE' : '');
  /**
   * `SELECT … FROM table WHERE where`, then `order`. In a transaction it locks the rows it reads, after the sessions
   * they are in: every change locks a session before what is in it, so no two transactions lock in opposite orders.
   */
  const sessionsFirst = (table: string, columns: string, where: string, order = '') =>
    pg.inTransaction()
      ? `WITH locked AS (SELECT s.key FROM sessions s JOIN ${table} t ON t.session_key = s.key WHERE ${where.replaceAll('$col.', 't.')} FOR UPDATE OF s)
         SELECT ${columns} FROM ${table} WHERE ${where.replaceAll('$col.', '')} AND (SELECT COUNT(*) FROM locked) >= 0 ${order} FOR UPDATE`
      : `SELECT ${columns} FROM ${table} WHERE ${where.replaceAll('$col.', '')} ${order}`;

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
      };
    },

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
      const latest = await store.latestSeq();
      return latest === 0 ? 0 : latest + 1;
    },
    async latestSeq() {
      const latest = Number((await committed(`SELECT value FROM askdock_seq WHERE id = 1`)).rows[0].value);
      // A cursor or snapshot handed out counts only what is on disk (inside a transaction: its own reads, kept to it).
      if (!pg.inTransaction()) await pg.flushed(latest);
      return latest;
    },
    async pruneEvents(beforeMs, keepAtLeast) {
      return store.transaction(async () => {
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
        if (below === Number.POSITIVE_INFINITY) below = (await store.latestSeq()) + 1;
        let dropped = (await q(`DELETE FROM events WHERE seq < $1`, [below])).rowCount;
        // This transaction's own events (held until it commits, the newest of all) go only when none must be kept: a
        // hole where each was, as in a store that numbers at once.
        if (keep === 0 && below > (await store.latestSeq()) && pg.inTransaction()) dropped += numbering().drop(beforeMs);
        return dropped;
      });
    },

    async createSession(row, idem) {
      const s = shapeSessionRow(row);
      await store.transaction(async () => {
        await insert(`INSERT INTO sessions (key, title, created_by, agent_id, created_at_ms, last_message_at_ms) VALUES ($1, $2, $3, $4, $5, $6)`, [
          s.key,
          s.title,
          s.createdBy,
          s.agentId,
          s.createdAtMs,
          s.lastMessageAtMs,
        ]);
        if (idem) (await insert(`INSERT INTO session_keys (identity, key, session_key) VALUES ($1, $2, $3)`, [idem.identity, idem.key, s.key]));
      });
    },
    async getSession(key) {
      const r = rowsOf<SessionDbRow>((await q(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.key = $1${pg.inTransaction() ? ' FOR UPDATE OF s' : ''}`, [key])))[0];
      return r ? toSession(r) : undefined;
    },
    async sessionByIdempotencyKey(identity, key) {
      const r = rowsOf<SessionDbRow>(
        (await q(`SELECT ${SESSION_COLUMNS} FROM session_keys k JOIN sessions s ON s.key = k.session_key WHERE k.identity = $1 AND k.key = $2`, [identity, key])),
      )[0];
      return r ? toSession(r) : undefined;
    },
    async renameSession(key, title) {
      if ((await q(`UPDATE sessions SET title = $2 WHERE key = $1`, [key, title])).rowCount === 0) throw missingRow('session', key);
    },
    async listSessions() {
      return rowsOf<SessionDbRow>(
        (await q(`SELECT ${SESSION_COLUMNS} FROM sessions s ORDER BY COALESCE(s.last_message_at_ms, s.created_at_ms) DESC, s.n DESC`)),
      ).map(toSession);
    },
    async touchSession(key, atMs) {
      const r = await q(`UPDATE sessions SET last_message_at_ms = GREATEST(COALESCE(last_message_at_ms, $2), $2) WHERE key = $1`, [key, atMs]);
      if (r.rowCount === 0) throw missingRow('session', key);
    },
    latestPrivilegedReplies(filter) {
      return latestPrivilegedPostgres(q, filter);
    },

    async insertMessage(msg) {
      const m = shapeMessage(msg);
      await insert(
        `INSERT INTO messages (id, session_key, seq, role, text, author_id, run_id, reply_to, created_at_ms, privileged_asker)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text, $9,
           (SELECT asked_by FROM questions WHERE id = ($8::text::json->>'questionId') AND (record::json->>'privileged') = 'true'))`,
        [m.id, m.sessionKey, m.seq, m.role, m.text, m.authorId, m.runId ?? null, m.replyTo ? toJson(m.replyTo) : null, m.createdAtMs],
      );
      if (pg.inTransaction()) numbering().message(m.id, m.seq);
    },
    async updateMessageText(id, text) {
      if ((await q(`UPDATE messages SET text = $2 WHERE id = $1`, [id, text])).rowCount === 0) throw missingRow('message', id);
    },
    async getMessage(id) {
      const r = rowsOf<MessageDbRow>((await q(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = $1`, [id])))[0];
      return r ? toMessage(r) : undefined;
    },
    async history(sessionKey, limit, before) {
      const take = Math.max(0, Math.trunc(limit));
      let rows: MessageDbRow[];
      if (before === undefined) {
        rows = rowsOf((await q(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_key = $1 ORDER BY seq DESC, n DESC LIMIT $2`, [sessionKey, take + 1])));
      } else {
        const at = (await q(`SELECT seq, n FROM messages WHERE id = $1 AND session_key = $2`, [before, sessionKey])).rows[0];
        // A cursor from another session or an unknown id pages nothing rather than restarting from the newest.
        if (!at) return { messages: [], hasMore: false };
        rows = rowsOf(
          (await q(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_key = $1 AND (seq, n) < ($2, $3) ORDER BY seq DESC, n DESC LIMIT $4`, [
            sessionKey,
            at.seq,
            at.n,
            take + 1,
          ])),
        );
      }
      const hasMore = rows.length > take;
      return { messages: rows.slice(0, take).reverse().map(toMessage), hasMore };
    },
    async getIdempotent(identity, key) {
      // The message's seq, as numbered when it committed.
      const r = (await q(
        `SELECT i.message_id, COALESCE(m.seq, i.seq) AS seq FROM idempotency i LEFT JOIN messages m ON m.id = i.message_id
         WHERE i.identity = $1 AND i.key = $2`,
        [identity, key],
      )).rows[0];
      return r ? { messageId: String(r.message_id), seq: Number(r.seq) } : undefined;
    },
    async putIdempotent(identity, key, result: IdempotentResult, atMs) {
      // The first result wins (C2): a repeat must never overwrite what the first send answered.
      await q(`INSERT INTO idempotency (identity, key, message_id, seq, at_ms) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (identity, key) DO NOTHING`, [
        identity,
        key,
        result.messageId,
        result.seq,
        atMs,
      ]);
    },

    async insertQuestion(question, recordJson, idIsNew) {
      const sql = `INSERT INTO questions (id, session_key, status, expires_at_ms, created_at_ms, retired_at_ms, record, asked_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`;
      const taken = () => new Error(`store: question "${question.id}" already exists`);
      // An id just made cannot be taken: the insert may go with the transaction's next statement (pg.writeOne).
      if (idIsNew) return await writeOne(sql, questionColumns(question, recordJson), taken);
      // A taken id leaves the transaction usable (as a guarded insert would) in one statement rather than three.
      const r = await q(sql, questionColumns(question, recordJson));
      if (r.rowCount === 0) throw taken();
    },
    async getQuestion(id) {
      // In a transaction its session is locked first, as every change in a session does: the usual paths lock in one order
      // (a deadlock between groups that touch two sessions in opposite orders is broken by PostgreSQL and retried, hub.ts).
      const r = rowsOf<{ record: string }>(await q(sessionsFirst('questions', 'record', '$col.id = $1'), [id]))[0];
      return r ? toQuestion(r) : undefined;
    },
    async updateQuestion(question) {
      // In a transaction the question was read (and locked) first: the update may go with the next statement (pg.writeOne).
      await writeOne(
        `UPDATE questions SET session_key = $2, status = $3, expires_at_ms = $4, created_at_ms = $5, retired_at_ms = $6, record = $7,
         asked_by = $8 WHERE id = $1`,
        questionColumns(question),
        () => missingRow('question', question.id),
      );
    },
    async listQuestions(filter: { sessionKey?: string; status?: QuestionStatus }) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.sessionKey !== undefined) where.push(`session_key = $${params.push(filter.sessionKey)}`);
      if (filter.status !== undefined) where.push(`status = $${params.push(filter.status)}`);
      // Locked in a transaction when of one session (Q11 is decided by the session's lock, see getSession).
      const lock = filter.sessionKey !== undefined ? locking() : '';
      const sql = `SELECT record FROM questions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at_ms, n${lock}`;
      return rowsOf<{ record: string }>((await q(sql, params))).map(toQuestion);
    },
    async countPendingAskedBy(askedBy) {
      const r = await q(`SELECT COUNT(*) AS n FROM questions WHERE asked_by = $1 AND ${OPEN_QUESTION}`, [askedBy]);
      return Number(r.rows[0].n);
    },
    async dueQuestions(nowMs) {
      return rowsOf<{ record: string }>(
        (await q(sessionsFirst('questions', 'record', `$col.status = 'pending' AND $col.expires_at_ms <= $1`, 'ORDER BY expires_at_ms, n'), [nowMs])),
      ).map(toQuestion);
    },
    async nextExpiryMs() {
      const at = (await q(`SELECT MIN(expires_at_ms) AS at FROM questions WHERE status = 'pending' AND expires_at_ms IS NOT NULL`)).rows[0].at;
      return at === null || at === undefined ? null : Number(at);
    },

    async insertRun(run) {
      await insert(
        `INSERT INTO runs (${RUN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        Object.values(runColumns(run)),
      );
    },
    async getRun(runId) {
      const r = rowsOf<RunDbRow>(await q(sessionsFirst('runs', RUN_COLUMNS, '$col.run_id = $1'), [runId]))[0];
      return r ? toRun(r) : undefined;
    },
    async updateRun(run) {
      const r = await q(
        `UPDATE runs SET session_key = $2, agent_id = $3, recovery = $4, started_at_ms = $5, ended_at_ms = $6, stop_reason = $7,
         phase = $8, trigger_message_id = $9, parent_run_id = $10, superseded_at_ms = $11,
         streaming_message_id = $12 WHERE run_id = $1`,
        Object.values(runColumns(run)),
      );
      if (r.rowCount === 0) throw missingRow('run', run.runId);
    },
    async activeRuns(sessionKey?: string | null) {
      const rows =
        sessionKey === undefined
          ? (await q(`SELECT ${RUN_COLUMNS} FROM runs WHERE ended_at_ms IS NULL ORDER BY started_at_ms, n`))
          : await q(`SELECT ${RUN_COLUMNS} FROM runs WHERE ended_at_ms IS NULL AND session_key IS NOT DISTINCT FROM $1 ORDER BY started_at_ms, n`, [
              sessionKey,
            ]);
      return rowsOf<RunDbRow>(rows).map(toRun);
    },

    ...secretMethods(q, insert, locking),
    ...pushMethods(q, pushCache),
    ...grantMethods(q, insert),
    ...auditMethods(q),

    search(scope) {
      return searchPostgres(q, scope);
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
    ...postgresRouteMethods(q, sessionsFirst),
    async questionSession(id) {
      // After what the request waits for (its client's earlier requests): a question asked just before is found.
      const r = (await q(`SELECT session_key FROM questions WHERE id = $1`, [id])).rows[0];
      return r ? ((r.session_key as string | null) ?? null) : null;
    },
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
