import type { MigrationStep } from '../migration-step.ts';

// L1/L2/L7: the audit log, the answers kept apart from it, and the signed checkpoints.

// L1/L2: the audit log (appended only), the answers' text and salt kept apart from it, and the signed checkpoints.
export const auditLog: MigrationStep = {
  id: 'audit-log',
  sql: `
      CREATE TABLE audit_entries (idx INTEGER PRIMARY KEY, line TEXT NOT NULL);
      CREATE TABLE audit_answers (idx INTEGER PRIMARY KEY, question_id TEXT NOT NULL, salt BLOB NOT NULL, answers TEXT NOT NULL);
      CREATE TABLE audit_checkpoints (size INTEGER PRIMARY KEY, note TEXT NOT NULL, signed_at_ms INTEGER NOT NULL);
    `,
};

// L2/L7: checkpoints in the order they were signed (a serial), so one signed again at a size already signed (after an
// acknowledgement) is kept and is the latest; the same note twice is still kept once. Those before keep their order.
export const auditCheckpointsSerial: MigrationStep = {
  id: 'audit-checkpoints-serial',
  sql: `
      CREATE TABLE audit_checkpoints_signed (
        serial INTEGER PRIMARY KEY,
        size INTEGER NOT NULL,
        note TEXT NOT NULL,
        signed_at_ms INTEGER NOT NULL,
        UNIQUE (size, note)
      );
      INSERT INTO audit_checkpoints_signed (size, note, signed_at_ms) SELECT size, note, signed_at_ms FROM audit_checkpoints ORDER BY size;
      DROP TABLE audit_checkpoints;
      ALTER TABLE audit_checkpoints_signed RENAME TO audit_checkpoints;
    `,
};

// L7: the last acknowledgement marked by the checkpoints stored before it (their serial), not by a gateway's clock:
// `audit.acknowledgedAtMs` becomes `audit.acknowledgement` = {entry: the acknowledgement's index, afterSerial: the last
// checkpoint signed before it by that clock}. New steps only: the steps above are released.
export const auditAcknowledgementSerial: MigrationStep = {
  id: 'audit-acknowledgement-serial',
  sql: `
      INSERT INTO meta (key, value)
        SELECT 'audit.acknowledgement', '{"entry":' || COALESCE((SELECT MAX(idx) FROM audit_entries WHERE line LIKE '%"event":"audit.acknowledged"%'), -1)
          || ',"afterSerial":' || COALESCE((SELECT MAX(serial) FROM audit_checkpoints WHERE signed_at_ms < CAST(m.value AS INTEGER)), 0) || '}'
        FROM meta m WHERE m.key = 'audit.acknowledgedAtMs';
      DELETE FROM meta WHERE key = 'audit.acknowledgedAtMs';
    `,
};

// L2/L7: a checkpoint's serial is never used again. Without AUTOINCREMENT SQLite numbers a row one past the largest
// left, so deleting the newest checkpoints handed their numbers to the next ones, which an acknowledgement made before
// then took for checkpoints it had set aside. AUTOINCREMENT keeps the highest number ever used (sqlite_sequence): it
// starts from the largest serial kept, or the last acknowledgement's, should the checkpoints up to it be gone already.
export const auditCheckpointsNeverReused: MigrationStep = {
  id: 'audit-checkpoints-never-reused',
  sql: `
      CREATE TABLE audit_checkpoints_numbered (
        serial INTEGER PRIMARY KEY AUTOINCREMENT,
        size INTEGER NOT NULL,
        note TEXT NOT NULL,
        signed_at_ms INTEGER NOT NULL,
        UNIQUE (size, note)
      );
      INSERT INTO audit_checkpoints_numbered (serial, size, note, signed_at_ms) SELECT serial, size, note, signed_at_ms FROM audit_checkpoints ORDER BY serial;
      DROP TABLE audit_checkpoints;
      ALTER TABLE audit_checkpoints_numbered RENAME TO audit_checkpoints;
      INSERT INTO sqlite_sequence (name, seq) SELECT 'audit_checkpoints', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'audit_checkpoints');
      UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE((SELECT CAST(json_extract(value, '$.afterSerial') AS INTEGER) FROM meta WHERE key = 'audit.acknowledgement'), 0))
        WHERE name = 'audit_checkpoints';
    `,
};
