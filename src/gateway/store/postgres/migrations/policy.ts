import type { MigrationStep } from '../../migration-step.ts';

// G5/E2: grants ("Always allow…") and the index of escalation deadlines.

// G5: grants ("Always allow…"), each with its scope's binding in its record; live ones are listed by expiry.
export const policyGrants: MigrationStep = {
  id: 'policy-grants',
  sql: `
  CREATE TABLE policy_grants (
    id text PRIMARY KEY,
    created_at_ms bigint NOT NULL,
    expires_at_ms bigint NOT NULL,
    revoked_at_ms bigint,
    record text NOT NULL
  );
  CREATE INDEX policy_grants_live ON policy_grants (expires_at_ms) WHERE revoked_at_ms IS NULL;
  `,
};

// E2/E11: pending questions by their next escalation step's deadline (../routing.ts reads it by the same function).
export const routeDueIndex: MigrationStep = {
  id: 'routing-due-index',
  sql: `
  CREATE FUNCTION askdock_route_due(record text) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
    SELECT (record::json #>> '{route,nextAtMs}')::double precision
  $f$;
  CREATE INDEX questions_route_due ON questions (askdock_route_due(record), n)
    WHERE status = 'pending' AND askdock_route_due(record) IS NOT NULL;
  `,
};
