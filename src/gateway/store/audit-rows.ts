import { builtEntryLine, type AuditEntry, type KeptAnswer } from '../../audit/index.ts';

/** L1: an entry as it is appended: everything but its index, which the store hands out under the transaction. */
export type NewAuditEntry = Omit<AuditEntry, 'index' | 'v'>;
/** An answer's text and salt, kept apart from the entry that holds only its digest (L4/L5). */
export type KeptAnswerInput = { questionId: string; salt: Buffer; answers: unknown };
/**
 * A signed checkpoint (L2): the tree's size and the C2SP note; `serial` numbers the checkpoints in the order they were
 * stored (across gateways: what an acknowledgement marks, L7), `signedAtMs` is the signer's clock, for people only.
 */
export type AuditCheckpointRow = { serial: number; size: number; note: string; signedAtMs: number };
/** A checkpoint to store: the store numbers it. */
export type NewAuditCheckpoint = Omit<AuditCheckpointRow, 'serial'>;

/** L1: the audit log's part of the store. Appends only: no row is ever updated or deleted. */
export interface AuditStoreMethods {
  /** In the caller's transaction: the next index (no gaps, one log across gateways), the entry's line, its kept answer. */
  appendAudit(entry: NewAuditEntry, kept?: KeptAnswerInput): AuditEntry;
  /**
   * As appendAudit, for an entry whose index the caller does not read (a question asked): in a transaction the store may
   * write it with the transaction's next statement rather than at once (a rollback undoes it as any write). Entries
   * still take their indexes in the order they were appended.
   */
  appendAuditUnread(entry: NewAuditEntry): void;
  auditSize(): number;
  /** The stored lines of entries `from` <= index < `to`, in order, with their indexes (a deleted row leaves a hole). */
  auditLines(from: number, to: number): { index: number; line: string }[];
  /** The kept answers of entries `from` <= index < `to`. */
  auditAnswers(from: number, to: number): KeptAnswer[];
  /** Kept in the order signed; a note already kept is not kept twice, another note of a size already signed is. */
  insertAuditCheckpoint(c: NewAuditCheckpoint): void;
  /** Smallest first; of one size, the first signed first. */
  auditCheckpoints(): AuditCheckpointRow[];
  /** The checkpoint signed last alone (one row read, however many were signed), or undefined before the first. */
  latestAuditCheckpoint(): AuditCheckpointRow | undefined;
  /**
   * The first checkpoint signed of a tree of `size` entries among those stored after `afterSerial` (an acknowledgement's
   * mark, L7), or undefined: one indexed read (the (size, note) key), however many checkpoints were signed.
   */
  auditCheckpointOfSize(size: number, afterSerial: number): AuditCheckpointRow | undefined;
  /**
   * L7 at an acknowledgement, in its transaction: each index missing below the last stored entry (a deleted row) gets
   * `placeholder`'s line at that index, so the log has no hole again. Nothing else is written: a kept answer at such an
   * index stays unexported (the placeholder records no answers). What was filled comes back as the first `listed` runs
   * and the counts: the database finds and fills every run itself, however many there are, and hands back no more.
   */
  fillAuditHoles(placeholder: NewAuditEntry, listed: number): FilledHoles;
}

/** Consecutive indexes `from` <= index <= `to`. */
export type AuditRun = { from: number; to: number };

/** The holes an acknowledgement filled: the first runs (in order), how many runs there were, every index filled. */
export type FilledHoles = { runs: AuditRun[]; runCount: number; lostCount: number };

/** The runs `a` <= index <= `b` missing below the last stored one: the gaps between stored rows, and before the first. */
export const GAPS_SQL = `SELECT 0 AS a, MIN(idx) - 1 AS b FROM audit_entries HAVING MIN(idx) > 0
  UNION ALL SELECT idx + 1, nxt - 1 FROM (SELECT idx, LEAD(idx) OVER (ORDER BY idx) AS nxt FROM audit_entries) g WHERE nxt > idx + 1`;

/** The first runs of GAPS_SQL (the limit its one parameter), each row with how many runs and indexes there are in all. */
export const FIRST_GAPS_SQL = (gaps: string, limit: string) =>
  `SELECT a, b, COUNT(*) OVER () AS runs, SUM(b - a + 1) OVER () AS lost FROM ${gaps} ORDER BY a LIMIT ${limit}`;

export type GapDbRow = { a: number | string; b: number | string; runs: number | string; lost: number | string };
export const toFilledHoles = (rows: GapDbRow[]): FilledHoles => ({
  runs: rows.map((r) => ({ from: Number(r.a), to: Number(r.b) })),
  runCount: Number(rows[0]?.runs ?? 0),
  lostCount: Number(rows[0]?.lost ?? 0),
});

/**
 * An entry's canonical line split around its index (RFC 8785 writes an integer as its decimal digits), so the database
 * puts the index in the line. The top-level `index` is the last `"index":` the line holds: only `detail` (sorted
 * before it) may hold another such key, and what follows it holds strings only.
 */
export function lineAround(entry: NewAuditEntry): { head: string; tail: string } {
  const { line } = indexedEntry(entry, 0);
  const at = line.lastIndexOf('"index":0');
  return { head: line.slice(0, at + '"index":'.length), tail: line.slice(at + '"index":0'.length) };
}

/** The entry with its index, and its canonical line (the leaf the tree hashes); the entry is the gateway's own (L1). */
export function indexedEntry(entry: NewAuditEntry, index: number): { entry: AuditEntry; line: string } {
  const full = entryAt(entry, index);
  return { entry: full, line: builtEntryLine(full) };
}

/** The entry with its index, where its line was built already (a store whose database writes the index into it). */
export function entryAt(entry: NewAuditEntry, index: number): AuditEntry {
  return { v: 1, index, ...entry } as AuditEntry;
}

export type AuditAnswerDbRow = { idx: number | string; question_id: string; salt: Buffer; answers: string };
export const toKeptAnswer = (r: AuditAnswerDbRow): KeptAnswer => ({
  entryIndex: Number(r.idx),
  questionId: r.question_id,
  salt: Buffer.from(r.salt),
  answers: JSON.parse(r.answers) as unknown,
});

export type CheckpointDbRow = { serial: number | string; size: number | string; note: string; signed_at_ms: number | string };
export const toCheckpointRow = (r: CheckpointDbRow): AuditCheckpointRow => ({ serial: Number(r.serial), size: Number(r.size), note: String(r.note), signedAtMs: Number(r.signed_at_ms) });
