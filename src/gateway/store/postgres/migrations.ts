import type { PoolClient } from 'pg';
import type { Postgres } from './pool.ts';
import { POSTGRES_STEPS } from './migrations/steps.ts';

/** Each step's SQL, in order (migrations/steps.ts). */
export const MIGRATIONS: readonly string[] = POSTGRES_STEPS.map((step) => step.sql);

/** Applies what is missing, one step per transaction, under a lock so two gateways starting together migrate once. */
export async function migrate(pg: Postgres, where: string): Promise<void> {
  // Session-level, on a connection of its own, so CREATE TABLE IF NOT EXISTS of two gateways starting together cannot race either.
  const client = await pg.connect();
  let broken = false;
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext(current_schema() || '.askdock_migrate'))`);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS askdock_schema (id int PRIMARY KEY CHECK (id = 1), version int NOT NULL)`);
      await client.query(`INSERT INTO askdock_schema (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING`);
      await applySteps(client, where);
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtext(current_schema() || '.askdock_migrate'))`);
    }
  } catch (err) {
    broken = true;
    throw err;
  } finally {
    client.release(broken);
  }
}

async function applySteps(client: PoolClient, where: string): Promise<void> {
  for (;;) {
    await client.query('BEGIN');
    try {
      const version = Number((await client.query(`SELECT version FROM askdock_schema WHERE id = 1 FOR UPDATE`)).rows[0].version);
      if (version > MIGRATIONS.length)
        throw new Error(
          `${where} has schema version ${version}, newer than this askdock knows (${MIGRATIONS.length}); upgrade askdock or use another database`,
        );
      if (version === MIGRATIONS.length) {
        await client.query('COMMIT');
        return;
      }
      await client.query(MIGRATIONS[version]);
      await client.query(`UPDATE askdock_schema SET version = $1 WHERE id = 1`, [version + 1]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    }
  }
}
