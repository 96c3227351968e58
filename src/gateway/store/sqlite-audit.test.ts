import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteAuditMethods } from './sqlite-audit.ts';
import type { NewAuditEntry } from './audit-rows.ts';

/** The audit tables as the migration makes them, and a count of statements run against them. */
function auditDb() {
  const db = new Database(':memory:');
  db.exec(`
    CREATE TABLE audit_entries (idx INTEGER PRIMARY KEY, line TEXT NOT NULL);
    CREATE TABLE audit_answers (idx INTEGER PRIMARY KEY, question_id TEXT NOT NULL, salt BLOB NOT NULL, answers TEXT NOT NULL);
    CREATE TABLE audit_checkpoints (serial INTEGER PRIMARY KEY, size INTEGER NOT NULL, note TEXT NOT NULL, signed_at_ms INTEGER NOT NULL, UNIQUE (size, note));
  `);
  const counted = { statements: 0 };
  const prepare = db.prepare.bind(db);
  // Every statement the audit methods prepare counts each time it runs.
  db.prepare = ((sql: string) => {
    const stmt = prepare(sql);
    for (const method of ['run', 'get', 'all'] as const) {
      const original = stmt[method].bind(stmt) as (...args: unknown[]) => unknown;
      (stmt as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        counted.statements++;
        return original(...args);
      };
    }
    return stmt;
  }) as typeof db.prepare;
  return { db, counted, audit: sqliteAuditMethods(db) };
}

const asked = (n: number): NewAuditEntry => ({ atMs: 1_000 + n, event: 'question.asked', identity: 'agent', questionId: `q_${n}` });

describe('SQLite audit log appends', () => {
  let open: Database.Database | undefined;
  afterEach(() => open?.close());

  it('[L1] an entry is one statement once the next index is known, and the indexes run on without a hole', () => {
    const { db, counted, audit } = auditDb();
    open = db;
    for (let n = 0; n < 10; n++) audit.appendAudit(asked(n));
    // The first append reads the next index once; each append after it is its insert alone (20 before: a read each).
    expect(counted.statements).toBe(11);
    expect(audit.auditLines(0, 100).map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('[L1] after a rolled-back append the next entry takes the index the rollback freed, not one past it', () => {
    const { db, audit } = auditDb();
    open = db;
    audit.appendAudit(asked(0));
    db.exec('BEGIN');
    audit.appendAudit(asked(1));
    db.exec('ROLLBACK');
    const entry = audit.appendAudit(asked(2));
    expect(entry.index).toBe(1);
    expect(audit.auditLines(0, 100).map((r) => [r.index, JSON.parse(r.line).questionId])).toEqual([
      [0, 'q_0'],
      [1, 'q_2'],
    ]);
  });

  it('[L1] an entry written by another connection meanwhile is not overwritten: the next append reads the index again', () => {
    const { db, audit } = auditDb();
    open = db;
    audit.appendAudit(asked(0));
    db.exec(`INSERT INTO audit_entries (idx, line) VALUES (1, '{"other":true}')`);
    expect(audit.appendAudit(asked(2)).index).toBe(2);
    expect(audit.auditSize()).toBe(3);
  });
});
