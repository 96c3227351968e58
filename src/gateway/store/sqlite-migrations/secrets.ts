import type { MigrationStep } from '../migration-step.ts';

// K1: secret requests and the encrypted secrets they store.

// RU1 subagent runs, RU2 superseded runs, K1 secret requests and encrypted secrets (ciphertext only).
export const runLineageAndSecrets: MigrationStep = {
  id: 'runs-lineage-secrets',
  sql: `
      ALTER TABLE runs ADD COLUMN parent_run_id TEXT;
      ALTER TABLE runs ADD COLUMN superseded_at_ms INTEGER;
      CREATE TABLE secret_requests (
        n INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        record TEXT NOT NULL
      );
      CREATE INDEX secret_requests_by_status ON secret_requests (status, created_at_ms, n);
      CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        ciphertext TEXT NOT NULL,
        stored_by TEXT NOT NULL,
        request_id TEXT,
        stored_at_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
};

// K1: a secret belongs to the agent identity that asked for it; one stored before learns it from its request.
export const secretOwner: MigrationStep = {
  id: 'secrets-owner',
  sql: `
      CREATE TABLE secrets_owned (
        owner TEXT NOT NULL,
        name TEXT NOT NULL,
        ciphertext TEXT NOT NULL,
        stored_by TEXT NOT NULL,
        request_id TEXT,
        stored_at_ms INTEGER NOT NULL,
        PRIMARY KEY (owner, name)
      ) WITHOUT ROWID;
      INSERT INTO secrets_owned (owner, name, ciphertext, stored_by, request_id, stored_at_ms)
        SELECT COALESCE((SELECT json_extract(r.record, '$.askedBy') FROM secret_requests r WHERE r.id = s.request_id), ''),
          s.name, s.ciphertext, s.stored_by, s.request_id, s.stored_at_ms
        FROM secrets s;
      DROP TABLE secrets;
      ALTER TABLE secrets_owned RENAME TO secrets;
    `,
};
