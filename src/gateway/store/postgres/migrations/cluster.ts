import type { MigrationStep } from '../../migration-step.ts';

// D3/D5: what several gateways on one database share: leases, liveness, presence, the flush rows.

// D3: duties held by one gateway at a time, and which asking clients are connected to which gateway (Q7).
export const clusterDutiesAndPresence: MigrationStep = {
  id: 'cluster-duties-presence',
  sql: `
  CREATE TABLE leases (name text PRIMARY KEY, holder text NOT NULL, until_ms bigint NOT NULL);
  CREATE TABLE gateways (id text PRIMARY KEY, alive_until_ms bigint NOT NULL);
  CREATE TABLE presence (
    identity text NOT NULL,
    client_id text NOT NULL,
    gateway_id text NOT NULL,
    connections int NOT NULL,
    left_at_ms bigint,
    PRIMARY KEY (identity, client_id, gateway_id)
  );
  `,
};

// D5: one row per connection, written by the synchronous commit that takes a numbering commit to disk (../transactions.ts).
export const flushRows: MigrationStep = {
  id: 'cluster-flush',
  sql: `
  CREATE TABLE askdock_flush (pid int PRIMARY KEY, n bigint NOT NULL);
  `,
};
