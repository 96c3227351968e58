import type Database from 'better-sqlite3';
import { questionText } from './sqlite-migrations/search.ts';
import { QUESTION_SCOPE } from './sqlite-search-scope.ts';

type Written = { depth: number; id: string; indexed: boolean };

/**
 * U19 on SQLite: each question's row in the search index (questions_fts), written by the store once per commit, not by
 * a trigger in every unit. FTS5 writes the terms it holds in memory to its index as a new segment at every savepoint,
 * and every unit of a commit group is one, so the triggers wrote a segment (and later its merges) per unit: a question
 * round trip's two units wrote two. Now the store notes each question it writes and writes the notes' rows (the same
 * text and scope words the triggers wrote) before COMMIT, and before any search reads the index, so a search sees the
 * questions table as it is, as it did with the triggers. A search inside a unit that is then rolled back puts its notes
 * back, so the rows are written again from what the table then holds.
 */
export class QuestionIndex {
  /** Question ids to write, each with whether the index may hold a row of it already (then it is deleted first). */
  private readonly notes = new Map<string, boolean>();
  /** Notes written inside an open transaction, with its depth then, until that transaction commits or rolls back. */
  private written: Written[] = [];
  /** Transactions and savepoints open (a commit group or a unit outside one is 1). */
  private depth = 0;
  private readonly read;
  private readonly insert;
  private readonly remove;

  constructor(db: Database.Database) {
    this.read = db.prepare<[string], { n: number; body: string; scope: string }>(
      `SELECT r.n, ${questionText('r.record')} AS body, ${QUESTION_SCOPE('r')} AS scope FROM questions r WHERE r.id = ?`,
    );
    // Single rows by VALUES: no statement journal, so FTS5 is not made to write a segment for each.
    this.insert = db.prepare<[number, string, string]>(`INSERT INTO questions_fts (rowid, body, scope) VALUES (?, ?, ?)`);
    this.remove = db.prepare<[number]>(`DELETE FROM questions_fts WHERE rowid = ?`);
  }

  inserted(id: string): void {
    this.notes.set(id, false);
  }

  updated(id: string): void {
    if (!this.notes.has(id)) this.notes.set(id, true);
  }

  /** Writes every noted question's row as the table holds it now (a row gone since leaves nothing). */
  write(): void {
    for (const [id, indexed] of this.notes) {
      const row = this.read.get(id);
      if (row) {
        if (indexed) this.remove.run(row.n);
        this.insert.run(row.n, row.body, row.scope);
      }
      if (this.depth > 1) this.written.push({ depth: this.depth, id, indexed });
    }
    this.notes.clear();
  }

  opened(): void {
    this.depth++;
  }

  /** Before the outermost transaction's COMMIT (the caller knows it is one): its notes go in with it. */
  committing(): void {
    this.write();
  }

  /**
   * With no transaction open (SQLite may end one by itself, e.g. after SQLITE_FULL or a RAISE(ROLLBACK)), nothing is
   * open and nothing noted stays: what the ended transaction wrote is gone with it, and the counts start again from 0.
   */
  settle(inTransaction: boolean): void {
    if (inTransaction) return;
    this.depth = 0;
    this.written = [];
    this.notes.clear();
  }

  released(): void {
    const level = this.depth--;
    if (this.depth === 0) this.written = [];
    else for (const w of this.written) if (w.depth >= level) w.depth = level - 1;
  }

  rolledBack(): void {
    const level = this.depth;
    this.depth = Math.max(0, this.depth - 1);
    if (this.depth === 0) {
      this.notes.clear();
      this.written = [];
      return;
    }
    // What was written inside the savepoint is undone: the index is as before the first of it.
    const undone = new Set<string>();
    const kept: Written[] = [];
    for (const w of this.written) {
      if (w.depth < level) kept.push(w);
      else if (!undone.has(w.id)) {
        undone.add(w.id);
        this.notes.set(w.id, w.indexed);
      }
    }
    this.written = kept;
  }
}
