import type { MigrationStep } from '../../migration-step.ts';

// K1: secret requests and the encrypted secrets they store.

// RU1 subagent runs, RU2 superseded runs, K1 secret requests and encrypted secrets (ciphertext only).
export const runLineageAndSecrets: MigrationStep = {
  id: 'runs-lineage-secrets',
  sql: `
  ALTER TABLE runs ADD COLUMN parent_run_id text;
  ALTER TABLE runs ADD COLUMN superseded_at_ms bigint;
  CREATE TABLE secret_requests (
    n bigserial PRIMARY KEY,
    id text NOT NULL UNIQUE,
    status text NOT NULL,
    created_at_ms bigint NOT NULL,
    record text NOT NULL
  );
  CREATE INDEX secret_requests_by_status ON secret_requests (status, created_at_ms, n);
  CREATE TABLE secrets (
    name text PRIMARY KEY,
    ciphertext text NOT NULL,
    stored_by text NOT NULL,
    request_id text,
    stored_at_ms bigint NOT NULL
  );
  `,
};

// K1: a secret belongs to the agent identity that asked for it; one stored before learns it from its request.
export const secretOwner: MigrationStep = {
  id: 'secrets-owner',
  sql: `
  ALTER TABLE secrets ADD COLUMN owner text;
  UPDATE secrets s SET owner = COALESCE((SELECT r.record::jsonb ->> 'askedBy' FROM secret_requests r WHERE r.id = s.request_id), '');
  ALTER TABLE secrets ALTER COLUMN owner SET NOT NULL;
  ALTER TABLE secrets DROP CONSTRAINT secrets_pkey;
  ALTER TABLE secrets ADD PRIMARY KEY (owner, name);
  `,
};
