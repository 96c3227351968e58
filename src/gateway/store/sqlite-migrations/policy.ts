import type { MigrationStep } from '../migration-step.ts';

// G5/E2: grants ("Always allow…") and the index of escalation deadlines.

// G5: grants ("Always allow…"), each with its scope's binding in its record; live ones are listed by expiry.
export const policyGrants: MigrationStep = {
  id: 'policy-grants',
  sql: `
      CREATE TABLE policy_grants (
        id TEXT PRIMARY KEY,
        created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        revoked_at_ms INTEGER,
        record TEXT NOT NULL
      );
      CREATE INDEX policy_grants_live ON policy_grants (expires_at_ms) WHERE revoked_at_ms IS NULL;
    `,
};

// E2/E11: pending questions by their next escalation step's deadline (sqlite-routing.ts reads it by the same expression).
export const routeDueIndex: MigrationStep = {
  id: 'routing-due-index',
  sql: `
      CREATE INDEX questions_route_due ON questions (json_extract(record, '$.route.nextAtMs'), n)
        WHERE status = 'pending' AND json_extract(record, '$.route.nextAtMs') IS NOT NULL;
    `,
};
