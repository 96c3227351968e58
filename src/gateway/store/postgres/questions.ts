import type { QuestionStatus } from '../../../protocol/index.ts';
import { OPEN_QUESTION, questionColumns, toQuestion } from '../rows.ts';
import { questionRowWords, questionSearchText } from '../search.ts';
import { missingRow } from '../shape.ts';
import type { StoredQuestion } from '../types.ts';
import type { SharedStore } from './cluster.ts';
import { rowsOf, type PgQueries } from './queries.ts';
import { spell } from './search.ts';

/**
 * U19/D5: the search column's value, made from the text and scope words the gateway computes (the same as the
 * migration's askdock_question_vector), so PostgreSQL does not parse the record's JSON on every write of a question.
 */
const SEARCH = `to_tsvector('simple', $9) || array_to_tsvector(string_to_array($10, ' '))`;
/** The scope words as one space-separated text (they hold none), so the write can be carried by a later statement (pg.writeOne takes literals, not arrays). */
const searchColumns = (q: StoredQuestion): [string, string] => [questionSearchText(q), questionRowWords(q, spell).map((w) => `#${w}`).join(' ')];

type QuestionMethods = Pick<
  SharedStore,
  'insertQuestion' | 'getQuestion' | 'updateQuestion' | 'listQuestions' | 'countPendingAskedBy' | 'dueQuestions' | 'nextExpiryMs' | 'questionSession'
>;

/** Q1..Q11 on PostgreSQL: question records, each read in a transaction locked after its session (queries.ts). */
export function questionMethods(db: PgQueries): QuestionMethods {
  const { q, writeOne, locking, sessionsFirst } = db;
  return {
    async insertQuestion(question, recordJson, idIsNew) {
      const sql = `INSERT INTO questions (id, session_key, status, expires_at_ms, created_at_ms, retired_at_ms, record, asked_by, search)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, ${SEARCH}) ON CONFLICT (id) DO NOTHING`;
      const taken = () => new Error(`store: question "${question.id}" already exists`);
      // An id just made cannot be taken: the insert may go with the transaction's next statement (pg.writeOne).
      const params = [...questionColumns(question, recordJson), ...searchColumns(question)];
      if (idIsNew) return await writeOne(sql, params, taken);
      // A taken id leaves the transaction usable (as a guarded insert would) in one statement rather than three.
      const r = await q(sql, params);
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
         asked_by = $8, search = ${SEARCH} WHERE id = $1`,
        [...questionColumns(question), ...searchColumns(question)],
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
    async questionSession(id) {
      // After what the request waits for (its client's earlier requests): a question asked just before is found.
      const r = (await q(`SELECT session_key FROM questions WHERE id = $1`, [id])).rows[0];
      return r ? ((r.session_key as string | null) ?? null) : null;
    },
  };
}
