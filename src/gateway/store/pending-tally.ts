import type Database from 'better-sqlite3';
import { OPEN_QUESTION } from './rows.ts';
import type { StoredQuestion } from './types-records.ts';

/**
 * A3: a session's open questions (pending, not retired: Q10) counted by who asked them and whether they are privileged,
 * the only two things of a question that decide who may see it in its session. Each viewer's own count follows from
 * these few rows (session-views.ts), so a session row is counted without reading one question.
 */
export type PendingTally = { sessionKey: string; askedBy: string; privileged: boolean; n: number };

export type PendingTallyMethods = {
  /** The tallies of one session, or of every session (sessionless questions are in none). */
  pendingTallies(sessionKey?: string): PendingTally[];
};

type Row = { session_key: string | null; asked_by: string; privileged: number | boolean; n: number | string };
const toTally = (r: Row): PendingTally => ({ sessionKey: r.session_key as string, askedBy: r.asked_by, privileged: r.privileged === true || r.privileged === 1, n: Number(r.n) });

/**
 * One aggregate over the open questions: the rows it answers grow with the askers, not with the questions. Of every
 * session, the open questions are found through the pending ones' index (not every question ever asked in a session),
 * and the sessionless group is left out after.
 */
function tallySql(privileged: string, oneSession: string | null, pendingOnly = ''): string {
  const where = oneSession === null ? OPEN_QUESTION : `session_key = ${oneSession} AND ${OPEN_QUESTION}`;
  return `SELECT session_key, asked_by, ${privileged} AS privileged, COUNT(*) AS n FROM questions${oneSession === null ? pendingOnly : ''}
    WHERE ${where} GROUP BY session_key, asked_by, ${privileged}`;
}
const inSessions = (rows: Row[]): PendingTally[] => rows.filter((r) => r.session_key !== null).map(toTally);

/** SQLite: both statements prepared once. */
export function prepareSqlitePendingTallies(db: Database.Database): PendingTallyMethods['pendingTallies'] {
  const privileged = `(json_type(record, '$.privileged') = 'true')`;
  // Else SQLite walks the index of every question by session (questions_by_session) for the grouping's order.
  const every = db.prepare<[], Row>(tallySql(privileged, null, ' INDEXED BY questions_pending'));
  const one = db.prepare<[string], Row>(tallySql(privileged, '?'));
  return (sessionKey) => inSessions(sessionKey === undefined ? every.all() : one.all(sessionKey));
}

/** PostgreSQL: records are JSON text, read as the search vector reads them (migrations.ts). */
export async function postgresPendingTallies(
  q: (sql: string, params: unknown[]) => Promise<{ rows: unknown[] }>,
  sessionKey: string | undefined,
): Promise<PendingTally[]> {
  const privileged = `((record::json->>'privileged') = 'true')`;
  const sql = tallySql(privileged, sessionKey === undefined ? null : '$1');
  return inSessions((await q(sql, sessionKey === undefined ? [] : [sessionKey])).rows as Row[]);
}

/** The memory store: the same tallies from its question rows. */
export function memoryPendingTallies(questions: Iterable<{ value: StoredQuestion }>, sessionKey: string | undefined): PendingTally[] {
  const tallies = new Map<string, PendingTally>();
  for (const { value: q } of questions) {
    if (q.sessionKey === undefined || q.sessionKey === null || q.status !== 'pending' || q.retiredAtMs != null) continue;
    if (sessionKey !== undefined && q.sessionKey !== sessionKey) continue;
    const privileged = q.privileged === true;
    const id = JSON.stringify([q.sessionKey, q.askedBy, privileged]);
    const known = tallies.get(id);
    if (known) known.n++;
    else tallies.set(id, { sessionKey: q.sessionKey, askedBy: q.askedBy, privileged, n: 1 });
  }
  return [...tallies.values()];
}
