import type Database from 'better-sqlite3';
import { FIRST_GAPS_SQL, GAPS_SQL, indexedEntry, lineAround, toCheckpointRow, toFilledHoles, toKeptAnswer, type AuditAnswerDbRow, type CheckpointDbRow, type AuditStoreMethods, type GapDbRow, type NewAuditEntry } from './audit-rows.ts';

/** L1 on SQLite: the audit log, appended in the transaction of the change it records. */
export function sqliteAuditMethods(db: Database.Database): AuditStoreMethods {
  const next = db.prepare<[], { n: number }>(`SELECT COALESCE(MAX(idx) + 1, 0) AS n FROM audit_entries`);
  // Inserts only while `idx` is still the next index: the guess and its check are one statement.
  const insertNext = db.prepare(`INSERT INTO audit_entries (idx, line) SELECT ?, ? WHERE (SELECT COALESCE(MAX(idx) + 1, 0) FROM audit_entries) = ?`);
  // An answer kept at an index taken before (its entry's row deleted, then acknowledged, L7) belonged to no entry now: replaced.
  const keep = db.prepare(`INSERT OR REPLACE INTO audit_answers (idx, question_id, salt, answers) VALUES (?, ?, ?, ?)`);
  const size = db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM audit_entries`);
  const lines = db.prepare<[number, number], { idx: number; line: string }>(`SELECT idx, line FROM audit_entries WHERE idx >= ? AND idx < ? ORDER BY idx`);
  const answers = db.prepare<[number, number], AuditAnswerDbRow>(`SELECT idx, question_id, salt, answers FROM audit_answers WHERE idx >= ? AND idx < ? ORDER BY idx`);
  // The same note twice is kept once; another note of a size already signed (after an acknowledgement) is kept too.
  const insertCheckpoint = db.prepare(`INSERT OR IGNORE INTO audit_checkpoints (size, note, signed_at_ms) VALUES (?, ?, ?)`);
  const checkpoints = db.prepare<[], CheckpointDbRow>(`SELECT serial, size, note, signed_at_ms FROM audit_checkpoints ORDER BY size, serial`);
  const latest = db.prepare<[], CheckpointDbRow>(`SELECT serial, size, note, signed_at_ms FROM audit_checkpoints ORDER BY serial DESC LIMIT 1`);
  // The UNIQUE (size, note) key's index finds the size's rows: no scan of the table.
  const ofSize = db.prepare<[number, number], CheckpointDbRow>(`SELECT serial, size, note, signed_at_ms FROM audit_checkpoints WHERE size = ? AND serial > ? ORDER BY serial LIMIT 1`);
  const firstGaps = db.prepare<[number], GapDbRow>(FIRST_GAPS_SQL(`(${GAPS_SQL})`, '?'));
  // Every missing index, counted up from each run's start, written by one statement (SQLite reads the table whole before
  // it inserts into it): no run is held outside the database, however many there are.
  const fill = db.prepare(`WITH RECURSIVE s(i, b) AS (SELECT a, b FROM (${GAPS_SQL}) UNION ALL SELECT i + 1, b FROM s WHERE i < b) INSERT INTO audit_entries (idx, line) SELECT i, ? || i || ? FROM s`);
  /**
   * The index after the last append, kept so an append is one statement, not a read and an insert. A unit rolled back
   * (or a row written by another connection) makes the guess wrong: the insert then changes nothing and the index is
   * read again, so the log never gets a hole or a duplicate.
   */
  let guess: number | undefined;
  const insertEntry = (entry: NewAuditEntry) => {
    for (let attempt = 0; ; attempt++) {
      const fresh = guess === undefined;
      const index = (guess ??= next.get()!.n);
      const indexed = indexedEntry(entry, index);
      if (insertNext.run(index, indexed.line, index).changes === 1) {
        guess = index + 1;
        return indexed.entry;
      }
      guess = undefined;
      if (fresh || attempt > 0) throw new Error(`audit: entry ${index} is not the next index of the log`);
    }
  };
  return {
    appendAudit(entry, kept) {
      const full = insertEntry(entry);
      if (kept) keep.run(full.index, kept.questionId, kept.salt, JSON.stringify(kept.answers));
      return full;
    },
    appendAuditUnread: (entry) => void insertEntry(entry),
    auditSize: () => size.get()!.n,
    auditLines: (from, to) => lines.all(from, to).map((r) => ({ index: r.idx, line: r.line })),
    auditAnswers: (from, to) => answers.all(from, to).map(toKeptAnswer),
    insertAuditCheckpoint(c) {
      insertCheckpoint.run(c.size, c.note, c.signedAtMs);
    },
    auditCheckpoints: () => checkpoints.all().map(toCheckpointRow),
    fillAuditHoles(placeholder, listed) {
      const filled = toFilledHoles(firstGaps.all(listed));
      const { head, tail } = lineAround(placeholder);
      if (filled.runCount > 0) fill.run(head, tail);
      return filled;
    },
    latestAuditCheckpoint() {
      const r = latest.get();
      return r ? toCheckpointRow(r) : undefined;
    },
    auditCheckpointOfSize(size, afterSerial) {
      const r = ofSize.get(size, afterSerial);
      return r ? toCheckpointRow(r) : undefined;
    },
  };
}
