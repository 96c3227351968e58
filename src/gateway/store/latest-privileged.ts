import type Database from 'better-sqlite3';
import type { ChatMessage } from '../../protocol/index.ts';
import type { LatestPrivilegedReply, PrivilegedReplyFilter, StoredQuestion } from './types.ts';

/**
 * A3: `latestPrivilegedReplies` of each store. The SQL stores read it from the partial index
 * `messages_privileged (privileged_asker, session_key, created_at_ms)`: the rows of privileged replies only.
 */

type Row = { session_key: string; privileged_asker: string; at_ms: number };
const toLatest = (r: Row): LatestPrivilegedReply => ({ sessionKey: r.session_key, askedBy: r.privileged_asker, atMs: Number(r.at_ms) });

/** The query with `param(value)` for each placeholder, and how a list of session keys is tested. */
function latestSql(filter: PrivilegedReplyFilter, param: (v: unknown) => string, inList: (placeholder: string) => string): string {
  const where = ['privileged_asker IS NOT NULL'];
  if (filter.askedBy !== undefined) where.push(`privileged_asker = ${param(filter.askedBy)}`);
  if (filter.sessionKeys !== undefined) where.push(`session_key ${inList(param(filter.sessionKeys))}`);
  return `SELECT session_key, privileged_asker, MAX(created_at_ms) AS at_ms FROM messages WHERE ${where.join(' AND ')}
    GROUP BY privileged_asker, session_key`;
}

/** SQLite: one statement per filter shape, prepared once; the keys travel as one JSON array. */
export function prepareLatestPrivileged(db: Database.Database) {
  const prepared = new Map<string, Database.Statement<unknown[], Row>>();
  return (filter: PrivilegedReplyFilter): LatestPrivilegedReply[] => {
    if (filter.sessionKeys?.length === 0) return [];
    const params: unknown[] = [];
    const sql = latestSql(filter, (v) => (params.push(Array.isArray(v) ? JSON.stringify(v) : v), '?'), (p) => `IN (SELECT value FROM json_each(${p}))`);
    let statement = prepared.get(sql);
    if (!statement) prepared.set(sql, (statement = db.prepare<unknown[], Row>(sql)));
    return statement.all(...params).map(toLatest);
  };
}

/** PostgreSQL: the keys travel as one array parameter. */
export async function latestPrivilegedPostgres(
  q: (sql: string, params: unknown[]) => Promise<{ rows: unknown[] }>,
  filter: PrivilegedReplyFilter,
): Promise<LatestPrivilegedReply[]> {
  if (filter.sessionKeys?.length === 0) return [];
  const params: unknown[] = [];
  const sql = latestSql(filter, (v) => `$${params.push(v)}`, (p) => `= ANY(${p}::text[])`);
  return ((await q(sql, params)).rows as Row[]).map(toLatest);
}

/** The memory store: the asker of a reply is that of the privileged question it answers, as the SQL stores record it. */
export function latestPrivilegedInMemory(
  messages: Iterable<{ value: ChatMessage }>,
  questions: ReadonlyMap<string, { value: StoredQuestion }>,
  filter: PrivilegedReplyFilter,
): LatestPrivilegedReply[] {
  const keys = filter.sessionKeys && new Set(filter.sessionKeys);
  const latest = new Map<string, LatestPrivilegedReply>();
  for (const { value: m } of messages) {
    const q = m.replyTo && questions.get(m.replyTo.questionId)?.value;
    if (!q || q.privileged !== true) continue;
    if ((filter.askedBy !== undefined && q.askedBy !== filter.askedBy) || (keys && !keys.has(m.sessionKey))) continue;
    const id = JSON.stringify([q.askedBy, m.sessionKey]);
    const known = latest.get(id);
    if (!known || known.atMs < m.createdAtMs) latest.set(id, { sessionKey: m.sessionKey, askedBy: q.askedBy, atMs: m.createdAtMs });
  }
  return [...latest.values()];
}
