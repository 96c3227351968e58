import type { ChatMessage, EventName, MessageRole, Phase, QuestionStatus, Session, StopReason } from '../../../protocol/index.ts';
import { missingRow, shapeMessage, shapeRun, shapeSessionRow, toJson } from '../shape.ts';
import type { EventAudience, IdempotentResult, RunRow, Store, StoredEvent, StoredQuestion } from '../types.ts';
import { SyncPostgres, type StepResult } from './bridge.ts';
import { claim, databaseKey } from './in-process.ts';
import { migrate } from './migrations.ts';
import { secretMethods } from './secrets.ts';
import { Transactions } from './transactions.ts';

/** What a gateway on a shared database needs beyond the Store: hearing of other gateways' events, leases, presence. */
export type SharedStore = Store & {
  readonly shared: true;
  /**
   * After this store's open group was committed early because another gateway of this process needed the database
   * (in-process.ts): `committed` tells whether it was kept. The group goes on in a new transaction.
   */
  onGroupCommittedEarly(fn: (committed: boolean) => void): () => void;
  /** Runs `fn(seq)` for each NOTIFY of a committed seq (from any gateway), and `fn(null)` after LISTEN reconnected. */
  onCommitted(fn: (seq: number | null) => void): () => void;
  /** D3: takes or renews lease `name` for `holder` until `untilMs`; true when `holder` has it. */
  acquireLease(name: string, holder: string, nowMs: number, untilMs: number): boolean;
  releaseLease(name: string, holder: string): void;
  /** Q7 across gateways: this gateway is alive until `untilMs`. */
  heartbeat(gatewayId: string, untilMs: number): void;
  clientConnected(identity: string, clientId: string, gatewayId: string): void;
  clientDisconnected(identity: string, clientId: string, gatewayId: string, atMs: number): void;
  /** When the client was last seen anywhere: null while connected to a live gateway, else the time it left (0: never seen). */
  clientAbsentSince(identity: string, clientId: string, nowMs: number): number | null;
};

export function isSharedStore(store: Store): store is SharedStore {
  return (store as Partial<SharedStore>).shared === true;
}

type SessionDbRow = { key: string; title: string; created_by: string; agent_id: string | null; created_at_ms: number; last_message_at_ms: number | null; pending: number };
type MessageDbRow = {
  id: string;
  session_key: string;
  seq: number;
  role: MessageRole;
  text: string;
  author_id: string;
  run_id: string | null;
  reply_to: string | null;
  created_at_ms: number;
};
type RunDbRow = {
  run_id: string;
  session_key: string | null;
  agent_id: string;
  recovery: boolean;
  started_at_ms: number;
  ended_at_ms: number | null;
  stop_reason: StopReason | null;
  phase: Phase | null;
  trigger_message_id: string | null;
  parent_run_id: string | null;
  superseded_at_ms: number | null;
};
type EventDbRow = { seq: number; event: EventName; payload: string; audience: string; at_ms: number };

const SESSION_COLUMNS = `s.key, s.title, s.created_by, s.agent_id, s.created_at_ms, s.last_message_at_ms,
  (SELECT COUNT(*) FROM questions q WHERE q.session_key = s.key AND q.status = 'pending' AND q.retired_at_ms IS NULL) AS pending`;
const MESSAGE_COLUMNS = `id, session_key, seq, role, text, author_id, run_id, reply_to, created_at_ms`;
const RUN_COLUMNS = `run_id, session_key, agent_id, recovery, started_at_ms, ended_at_ms, stop_reason, phase, trigger_message_id,
  parent_run_id, superseded_at_ms`;

const rowsOf = <T>(r: StepResult) => r.rows as T[];

function toSession(r: SessionDbRow): Session {
  const row = shapeSessionRow({
    key: r.key,
    title: r.title,
    createdBy: r.created_by,
    agentId: r.agent_id,
    createdAtMs: r.created_at_ms,
    lastMessageAtMs: r.last_message_at_ms,
  });
  return { ...row, pendingQuestions: Number(r.pending) };
}

function toMessage(r: MessageDbRow): ChatMessage {
  return shapeMessage({
    id: r.id,
    sessionKey: r.session_key,
    role: r.role,
    text: r.text,
    authorId: r.author_id,
    runId: r.run_id,
    replyTo: r.reply_to === null ? null : JSON.parse(r.reply_to),
    createdAtMs: r.created_at_ms,
    seq: r.seq,
  });
}

function toRun(r: RunDbRow): RunRow {
  return shapeRun({
    runId: r.run_id,
    sessionKey: r.session_key,
    agentId: r.agent_id,
    recovery: r.recovery,
    startedAtMs: r.started_at_ms,
    endedAtMs: r.ended_at_ms,
    stopReason: r.stop_reason,
    phase: r.phase,
    triggerMessageId: r.trigger_message_id,
    parentRunId: r.parent_run_id,
    supersededAtMs: r.superseded_at_ms,
  });
}

function toEvent(r: EventDbRow): StoredEvent {
  return { seq: r.seq, event: r.event, payload: JSON.parse(r.payload), audience: JSON.parse(r.audience) as EventAudience, atMs: r.at_ms };
}

const toQuestion = (r: { record: string }) => JSON.parse(r.record) as StoredQuestion;

const questionParams = (q: StoredQuestion) => [q.id, q.sessionKey ?? null, q.status, q.expiresAtMs ?? null, q.createdAtMs, q.retiredAtMs ?? null, toJson(q)];

const runParams = (r: RunRow) => [
  r.runId,
  r.sessionKey ?? null,
  r.agentId,
  r.recovery,
  r.startedAtMs,
  r.endedAtMs ?? null,
  r.stopReason ?? null,
  r.phase ?? null,
  r.triggerMessageId ?? null,
  r.parentRunId ?? null,
  r.supersededAtMs ?? null,
];

/** NOTIFY channel names are identifiers: one per schema, so gateways on different schemas of a database stay apart. */
export function channelFor(schema: string): string {
  return `askdock_events_${schema.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`.slice(0, 63);
}

/** The schema a `postgres://` URL selects through `options=-c search_path=…`, else `public`. */
export function schemaOf(url: string): string {
  try {
    const options = new URL(url).searchParams.get('options') ?? '';
    const m = /search_path\s*=\s*([A-Za-z0-9_]+)/.exec(options);
    return m ? m[1] : 'public';
  } catch {
    return 'public';
  }
}

/** Hides the password of a connection URL for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/** D1: opens (creating and migrating when needed) the gateway's tables in the PostgreSQL database at `url`. */
export function openPostgresStore(url: string): SharedStore {
  const where = redactUrl(url);
  const channel = channelFor(schemaOf(url));
  const pg = new SyncPostgres(url, channel);
  let key: string;
  let txs: Transactions | undefined;
  try {
    const { database } = pg.query(`SELECT current_database() AS database`).rows[0] as { database: string };
    key = databaseKey(url, database, schemaOf(url));
    pg.beforeWaiting = () => claim(key, txs);
    migrate(pg, where);
  } catch (err) {
    pg.close();
    throw new Error(`askdock: cannot use PostgreSQL at ${where}: ${(err as Error).message}`);
  }
  const q = (sql: string, params?: unknown[]) => pg.query(sql, params);
  const insert = (sql: string, params?: unknown[]) => pg.query(sql, params, true);
  txs = new Transactions(pg, key);
  const transactions = txs;

  const store: SharedStore = {
    shared: true,
    transaction: (fn) => transactions.transaction(fn),
    beginGroup: () => transactions.beginGroup(),
    commitGroup: () => transactions.commitGroup(),
    rollbackGroup: () => transactions.rollbackGroup(),
    onGroupCommittedEarly: (fn) => transactions.onYield(fn),

    appendEvent(e) {
      // Takes the next seq and tells every gateway in one statement; NOTIFY is delivered when the transaction commits.
      const r = q(
        `WITH s AS (UPDATE askdock_seq SET value = value + 1 WHERE id = 1 RETURNING value)
         INSERT INTO events (seq, event, payload, audience, at_ms) SELECT value, $1, $2, $3, $4 FROM s
         RETURNING seq, pg_notify($5, seq::text)`,
        [e.event, toJson(e.payload), toJson(e.audience), e.atMs, channel],
      );
      return Number(r.rows[0].seq);
    },
    eventsAfter(cursor, limit) {
      const take = Math.max(0, Math.trunc(limit));
      return rowsOf<EventDbRow>(q(`SELECT * FROM events WHERE seq > $1 ORDER BY seq LIMIT $2`, [cursor, take])).map(toEvent);
    },
    oldestEventSeq() {
      const oldest = q(`SELECT MIN(seq) AS seq FROM events`).rows[0].seq as number | null;
      if (oldest !== null) return oldest;
      const latest = store.latestSeq();
      return latest === 0 ? 0 : latest + 1;
    },
    latestSeq() {
      return Number(q(`SELECT value FROM askdock_seq WHERE id = 1`).rows[0].value);
    },
    pruneEvents(beforeMs, keepAtLeast) {
      return store.transaction(() => {
        const keep = Math.max(0, Math.trunc(keepAtLeast));
        let below = Number.POSITIVE_INFINITY;
        if (keep > 0) {
          const nth = q(`SELECT seq FROM events ORDER BY seq DESC LIMIT 1 OFFSET $1`, [keep - 1]).rows[0];
          if (!nth) return 0;
          below = Number(nth.seq);
        }
        // Drop only a prefix, so the kept events have no holes even if clocks stepped back.
        const firstRecent = q(`SELECT seq FROM events WHERE at_ms >= $1 ORDER BY seq LIMIT 1`, [beforeMs]).rows[0];
        if (firstRecent) below = Math.min(below, Number(firstRecent.seq));
        if (below === Number.POSITIVE_INFINITY) below = store.latestSeq() + 1;
        return q(`DELETE FROM events WHERE seq < $1`, [below]).rowCount;
      });
    },

    createSession(row, idem) {
      const s = shapeSessionRow(row);
      store.transaction(() => {
        insert(`INSERT INTO sessions (key, title, created_by, agent_id, created_at_ms, last_message_at_ms) VALUES ($1, $2, $3, $4, $5, $6)`, [
          s.key,
          s.title,
          s.createdBy,
          s.agentId,
          s.createdAtMs,
          s.lastMessageAtMs,
        ]);
        if (idem) insert(`INSERT INTO session_keys (identity, key, session_key) VALUES ($1, $2, $3)`, [idem.identity, idem.key, s.key]);
      });
    },
    getSession(key) {
      const r = rowsOf<SessionDbRow>(q(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.key = $1`, [key]))[0];
      return r ? toSession(r) : undefined;
    },
    sessionByIdempotencyKey(identity, key) {
      const r = rowsOf<SessionDbRow>(
        q(`SELECT ${SESSION_COLUMNS} FROM session_keys k JOIN sessions s ON s.key = k.session_key WHERE k.identity = $1 AND k.key = $2`, [identity, key]),
      )[0];
      return r ? toSession(r) : undefined;
    },
    renameSession(key, title) {
      if (q(`UPDATE sessions SET title = $2 WHERE key = $1`, [key, title]).rowCount === 0) throw missingRow('session', key);
    },
    listSessions() {
      return rowsOf<SessionDbRow>(
        q(`SELECT ${SESSION_COLUMNS} FROM sessions s ORDER BY COALESCE(s.last_message_at_ms, s.created_at_ms) DESC, s.n DESC`),
      ).map(toSession);
    },
    touchSession(key, atMs) {
      const r = q(`UPDATE sessions SET last_message_at_ms = GREATEST(COALESCE(last_message_at_ms, $2), $2) WHERE key = $1`, [key, atMs]);
      if (r.rowCount === 0) throw missingRow('session', key);
    },

    insertMessage(msg) {
      const m = shapeMessage(msg);
      insert(
        `INSERT INTO messages (id, session_key, seq, role, text, author_id, run_id, reply_to, created_at_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [m.id, m.sessionKey, m.seq, m.role, m.text, m.authorId, m.runId ?? null, m.replyTo ? toJson(m.replyTo) : null, m.createdAtMs],
      );
    },
    updateMessageText(id, text) {
      if (q(`UPDATE messages SET text = $2 WHERE id = $1`, [id, text]).rowCount === 0) throw missingRow('message', id);
    },
    getMessage(id) {
      const r = rowsOf<MessageDbRow>(q(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = $1`, [id]))[0];
      return r ? toMessage(r) : undefined;
    },
    history(sessionKey, limit, before) {
      const take = Math.max(0, Math.trunc(limit));
      let rows: MessageDbRow[];
      if (before === undefined) {
        rows = rowsOf(q(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_key = $1 ORDER BY seq DESC, n DESC LIMIT $2`, [sessionKey, take + 1]));
      } else {
        const at = q(`SELECT seq, n FROM messages WHERE id = $1 AND session_key = $2`, [before, sessionKey]).rows[0];
        // A cursor from another session or an unknown id pages nothing rather than restarting from the newest.
        if (!at) return { messages: [], hasMore: false };
        rows = rowsOf(
          q(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_key = $1 AND (seq, n) < ($2, $3) ORDER BY seq DESC, n DESC LIMIT $4`, [
            sessionKey,
            at.seq,
            at.n,
            take + 1,
          ]),
        );
      }
      const hasMore = rows.length > take;
      return { messages: rows.slice(0, take).reverse().map(toMessage), hasMore };
    },
    getIdempotent(identity, key) {
      const r = q(`SELECT message_id, seq FROM idempotency WHERE identity = $1 AND key = $2`, [identity, key]).rows[0];
      return r ? { messageId: String(r.message_id), seq: Number(r.seq) } : undefined;
    },
    putIdempotent(identity, key, result: IdempotentResult, atMs) {
      // The first result wins (C2): a repeat must never overwrite what the first send answered.
      q(`INSERT INTO idempotency (identity, key, message_id, seq, at_ms) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (identity, key) DO NOTHING`, [
        identity,
        key,
        result.messageId,
        result.seq,
        atMs,
      ]);
    },

    insertQuestion(question) {
      insert(
        `INSERT INTO questions (id, session_key, status, expires_at_ms, created_at_ms, retired_at_ms, record) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        questionParams(question),
      );
    },
    getQuestion(id) {
      const r = rowsOf<{ record: string }>(q(`SELECT record FROM questions WHERE id = $1`, [id]))[0];
      return r ? toQuestion(r) : undefined;
    },
    updateQuestion(question) {
      const r = q(
        `UPDATE questions SET session_key = $2, status = $3, expires_at_ms = $4, created_at_ms = $5, retired_at_ms = $6, record = $7 WHERE id = $1`,
        questionParams(question),
      );
      if (r.rowCount === 0) throw missingRow('question', question.id);
    },
    listQuestions(filter: { sessionKey?: string; status?: QuestionStatus }) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.sessionKey !== undefined) where.push(`session_key = $${params.push(filter.sessionKey)}`);
      if (filter.status !== undefined) where.push(`status = $${params.push(filter.status)}`);
      const sql = `SELECT record FROM questions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at_ms, n`;
      return rowsOf<{ record: string }>(q(sql, params)).map(toQuestion);
    },
    dueQuestions(nowMs) {
      return rowsOf<{ record: string }>(
        q(`SELECT record FROM questions WHERE status = 'pending' AND expires_at_ms <= $1 ORDER BY expires_at_ms, n`, [nowMs]),
      ).map(toQuestion);
    },
    nextExpiryMs() {
      const at = q(`SELECT MIN(expires_at_ms) AS at FROM questions WHERE status = 'pending' AND expires_at_ms IS NOT NULL`).rows[0].at;
      return at === null || at === undefined ? null : Number(at);
    },

    insertRun(run) {
      insert(
        `INSERT INTO runs (${RUN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        runParams(run),
      );
    },
    getRun(runId) {
      const r = rowsOf<RunDbRow>(q(`SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = $1`, [runId]))[0];
      return r ? toRun(r) : undefined;
    },
    updateRun(run) {
      const r = q(
        `UPDATE runs SET session_key = $2, agent_id = $3, recovery = $4, started_at_ms = $5, ended_at_ms = $6, stop_reason = $7,
         phase = $8, trigger_message_id = $9, parent_run_id = $10, superseded_at_ms = $11 WHERE run_id = $1`,
        runParams(run),
      );
      if (r.rowCount === 0) throw missingRow('run', run.runId);
    },
    activeRuns(sessionKey?: string | null) {
      const rows =
        sessionKey === undefined
          ? q(`SELECT ${RUN_COLUMNS} FROM runs WHERE ended_at_ms IS NULL ORDER BY started_at_ms, n`)
          : q(`SELECT ${RUN_COLUMNS} FROM runs WHERE ended_at_ms IS NULL AND session_key IS NOT DISTINCT FROM $1 ORDER BY started_at_ms, n`, [
              sessionKey,
            ]);
      return rowsOf<RunDbRow>(rows).map(toRun);
    },

    ...secretMethods(q, insert),

    getMeta(key) {
      const r = q(`SELECT value FROM meta WHERE key = $1`, [key]).rows[0];
      return r ? String(r.value) : undefined;
    },
    setMeta(key, value) {
      q(`INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [key, value]);
    },

    onCommitted(fn) {
      const offNotify = pg.onNotify((payload) => {
        const seq = Number(payload);
        if (Number.isSafeInteger(seq)) fn(seq);
      });
      const offListening = pg.onListening(() => fn(null));
      return () => {
        offNotify();
        offListening();
      };
    },
    acquireLease(name, holder, nowMs, untilMs) {
      const r = q(
        `INSERT INTO leases (name, holder, until_ms) VALUES ($1, $2, $4)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms
         WHERE leases.holder = excluded.holder OR leases.until_ms < $3
         RETURNING holder`,
        [name, holder, nowMs, untilMs],
      );
      return r.rowCount === 1;
    },
    releaseLease(name, holder) {
      q(`DELETE FROM leases WHERE name = $1 AND holder = $2`, [name, holder]);
    },
    heartbeat(gatewayId, untilMs) {
      q(`INSERT INTO gateways (id, alive_until_ms) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET alive_until_ms = excluded.alive_until_ms`, [
        gatewayId,
        untilMs,
      ]);
    },
    clientConnected(identity, clientId, gatewayId) {
      q(
        `INSERT INTO presence (identity, client_id, gateway_id, connections, left_at_ms) VALUES ($1, $2, $3, 1, NULL)
         ON CONFLICT (identity, client_id, gateway_id) DO UPDATE SET connections = presence.connections + 1, left_at_ms = NULL`,
        [identity, clientId, gatewayId],
      );
    },
    clientDisconnected(identity, clientId, gatewayId, atMs) {
      q(
        `UPDATE presence SET connections = GREATEST(connections - 1, 0),
         left_at_ms = CASE WHEN connections <= 1 THEN $4 ELSE left_at_ms END
         WHERE identity = $1 AND client_id = $2 AND gateway_id = $3`,
        [identity, clientId, gatewayId, atMs],
      );
    },
    clientAbsentSince(identity, clientId, nowMs) {
      // A connection on a gateway that stopped renewing its heartbeat counts as gone since that heartbeat ran out.
      const rows = q(
        `SELECT p.connections, p.left_at_ms, g.alive_until_ms FROM presence p LEFT JOIN gateways g ON g.id = p.gateway_id
         WHERE p.identity = $1 AND p.client_id = $2`,
        [identity, clientId],
      ).rows as { connections: number; left_at_ms: number | null; alive_until_ms: number | null }[];
      let since = 0;
      for (const r of rows) {
        const alive = r.alive_until_ms !== null && r.alive_until_ms >= nowMs;
        if (r.connections > 0 && alive) return null;
        const left = r.connections > 0 ? (r.alive_until_ms ?? 0) : (r.left_at_ms ?? 0);
        since = Math.max(since, left);
      }
      return since;
    },

    close() {
      transactions.closing();
      pg.close();
    },
  };
  return store;
}
