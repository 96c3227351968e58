import { SESSION_COLUMNS, toSession, type SessionDbRow } from '../rows.ts';
import { missingRow, shapeSessionRow } from '../shape.ts';
import { latestPrivilegedPostgres } from '../latest-privileged.ts';
import type { Store } from '../types.ts';
import { rowsOf, type PgQueries } from './queries.ts';

type SessionMethods = Pick<
  Store,
  'createSession' | 'getSession' | 'sessionByIdempotencyKey' | 'renameSession' | 'listSessions' | 'touchSession' | 'latestPrivilegedReplies'
>;

/** C1/A6 on PostgreSQL: sessions, each locked as it is read in a transaction, before anything in it (queries.ts). */
export function sessionMethods(db: PgQueries): SessionMethods {
  const { pg, q, insert } = db;
  return {
    async createSession(row, idem) {
      const s = shapeSessionRow(row);
      await db.current().transaction(async () => {
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
  };
}
