import { toMessage, type MessageDbRow } from '../rows.ts';
import { missingRow, shapeMessage, toJson } from '../shape.ts';
import type { IdempotentResult, Store } from '../types.ts';
import { rowsOf, type PgQueries } from './queries.ts';

const MESSAGE_COLUMNS = `id, session_key, seq, role, text, author_id, run_id, reply_to, created_at_ms`;

type MessageMethods = Pick<Store, 'insertMessage' | 'updateMessageText' | 'getMessage' | 'history' | 'getIdempotent' | 'putIdempotent'>;

/** C2/C3 on PostgreSQL: messages, numbered with their `chat` event at commit (transactions.ts), and idempotent sends. */
export function messageMethods(db: PgQueries): MessageMethods {
  const { pg, q, insert, numbering } = db;
  return {
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
  };
}
