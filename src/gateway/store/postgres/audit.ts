import { entryAt, FIRST_GAPS_SQL, GAPS_SQL, lineAround, toCheckpointRow, toFilledHoles, toKeptAnswer, type AuditAnswerDbRow, type CheckpointDbRow, type AuditStoreMethods, type GapDbRow, type KeptAnswerInput, type NewAuditEntry } from '../audit-rows.ts';

import type { Store } from '../types.ts';
import type { QueryResult } from './pool.ts';

type Query = (sql: string, params?: unknown[]) => Promise<QueryResult>;
/** The transaction an append runs in, which notes whether it waits for the log's lock or holds it (transactions.ts). */
type LockHolder = { auditLock: 'none' | 'asked' | 'held' };

/** The log's lock: taken by each append, held until its transaction ends. */
const LOCK = `SELECT pg_advisory_xact_lock(hashtext('askdock.audit'))`;

type Async<S> = { [K in keyof S]: S[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : S[K] };

/**
 * L1 on PostgreSQL: one log for every gateway of the database. An append takes the log's transaction lock first, so
 * two gateways hand out indexes one after the other and leave no gap (a rolled-back append frees its index).
 */
export function auditMethods(q: Query, holder: () => LockHolder | undefined = () => undefined): Async<AuditStoreMethods> & Partial<Store> {
  /** Notes the lock asked for until its answer: a group whose unit waits there may take in more units (hub/commit.ts). */
  const locked = (lock: Promise<QueryResult>) => {
    const t = holder();
    if (t?.auditLock !== 'none') return lock;
    t.auditLock = 'asked';
    // Refused (a timeout, a deadlock): its unit is undone, and the lock with it.
    const now = (state: 'held' | 'none') => () => void (t.auditLock === 'asked' && (t.auditLock = state));
    lock.then(now('held'), now('none'));
    return lock;
  };
  const append = async (entry: NewAuditEntry, kept?: KeptAnswerInput) => {
    // The next index, the entry's line with it and the kept answer are written by one statement, sent in the same
    // round trip as the lock (and what the transaction put off): statements of one query run in order, each reading
    // from a snapshot taken as it starts, so the insert reads the log once the lock is held.
    const { head, tail } = lineAround(entry);
    // The salt as hex text: every parameter a plain value, so the statement can share the lock's query (pool.ts).
    const answers = kept ? [kept.questionId, kept.salt.toString('hex'), JSON.stringify(kept.answers)] : [];
    // An answer kept at an index taken before (its entry's row deleted, then acknowledged, L7) belonged to no entry now: replaced.
    const replace = `ON CONFLICT (idx) DO UPDATE SET question_id = excluded.question_id, salt = excluded.salt, answers = excluded.answers`;
    const keep = kept ? `, a AS (INSERT INTO audit_answers (idx, question_id, salt, answers) SELECT idx, $3, decode($4, 'hex'), $5 FROM e ${replace})` : '';
    const insert = `WITH e AS (INSERT INTO audit_entries (idx, line) SELECT n, $1 || n::text || $2 FROM (SELECT COALESCE(MAX(idx) + 1, 0) AS n FROM audit_entries) s RETURNING idx)${keep} SELECT idx FROM e`;
    // Even an entry whose index nobody reads takes the lock in its own unit's round trip: put off to the transaction's
    // next statement, a failed lock (a timeout, a deadlock) would undo its whole group, where here only its unit fails (a
    // deadlock's is run again), and the round trip saved did not show in the gateway's CPU (bench/FINDINGS.md 69).
    const [, r] = await Promise.all([locked(q(LOCK)), q(insert, [head, tail, ...answers])]);
    // The line was built once, for the database: the entry alone is what the caller gets.
    return entryAt(entry, Number(r.rows[0].idx));
  };
  return {
    appendAudit: async (entry, kept) => (await append(entry, kept))!,
    async appendAuditUnread(entry) {
      await append(entry);
    },
    async auditSize() {
      return Number((await q(`SELECT COUNT(*) AS n FROM audit_entries`)).rows[0].n);
    },
    async auditLines(from, to) {
      const r = await q(`SELECT idx, line FROM audit_entries WHERE idx >= $1 AND idx < $2 ORDER BY idx`, [from, to]);
      return r.rows.map((row) => ({ index: Number(row.idx), line: String(row.line) }));
    },
    async auditAnswers(from, to) {
      const r = await q(`SELECT idx, question_id, salt, answers FROM audit_answers WHERE idx >= $1 AND idx < $2 ORDER BY idx`, [from, to]);
      return (r.rows as AuditAnswerDbRow[]).map(toKeptAnswer);
    },
    async insertAuditCheckpoint(c) {
      // The same note twice is kept once; another note of a size already signed (after an acknowledgement) is kept too.
      await q(`INSERT INTO audit_checkpoints (size, note, signed_at_ms) VALUES ($1, $2, $3) ON CONFLICT (size, note) DO NOTHING`, [c.size, c.note, c.signedAtMs]);
    },
    async auditCheckpoints() {
      const r = await q(`SELECT serial, size, note, signed_at_ms FROM audit_checkpoints ORDER BY size, serial`);
      return (r.rows as CheckpointDbRow[]).map(toCheckpointRow);
    },
    async fillAuditHoles(placeholder, listed) {
      // Under the log's lock: no append moves the last index while the gaps are read and filled.
      await q(LOCK);
      const { head, tail } = lineAround(placeholder);
      // One statement, however many runs the log has (a round trip per run, under the lock every gateway's appends wait
      // for, could outlast their lock_timeout): the database finds the runs once, fills each index of every one, and
      // answers only the first `listed` with the counts, so no run the answer does not list leaves it.
      const fill = `INSERT INTO audit_entries (idx, line) SELECT i, $1 || i::text || $2 FROM g, generate_series(g.a, g.b) AS i`;
      const r = await q(`WITH g AS MATERIALIZED (${GAPS_SQL}), filled AS (${fill}) ${FIRST_GAPS_SQL('g', '$3')}`, [head, tail, listed]);
      return toFilledHoles(r.rows as GapDbRow[]);
    },
    async latestAuditCheckpoint() {
      const row = (await q(`SELECT serial, size, note, signed_at_ms FROM audit_checkpoints ORDER BY serial DESC LIMIT 1`)).rows[0] as CheckpointDbRow | undefined;
      return row ? toCheckpointRow(row) : undefined;
    },
    async auditCheckpointOfSize(size, afterSerial) {
      // The UNIQUE (size, note) key's index finds the size's rows: no scan of the table.
      const r = await q(`SELECT serial, size, note, signed_at_ms FROM audit_checkpoints WHERE size = $1 AND serial > $2 ORDER BY serial LIMIT 1`, [size, afterSerial]);
      const row = r.rows[0] as CheckpointDbRow | undefined;
      return row ? toCheckpointRow(row) : undefined;
    },
  };
}
