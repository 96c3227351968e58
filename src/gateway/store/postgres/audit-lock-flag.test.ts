import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { freshSchema } from '../../../testing/postgres.ts';
import { openPostgresStore } from './store.ts';

/** The audit log's advisory lock granted to connections of the database (`askdock.audit`, audit.ts). */
async function heldAuditLocks(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query(`SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = hashtext('askdock.audit')::oid AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
    return Number(r.rows[0].n);
  } finally {
    await c.end();
  }
}

describe('L1/D5 the lane knows whether its group holds the audit log\'s lock', () => {
  it('[L1][D5] a unit that took the lock and failed is undone with it: its group no longer holds the lock, nor says it does', async () => {
    const schema = await freshSchema('lockflag');
    const s = await openPostgresStore(schema.url);
    try {
      const lane = s.lane(0);
      await lane.beginGroup();
      await lane.transaction(() => s.createSession({ key: 's1', title: 's1', createdBy: 'op', agentId: null, createdAtMs: 1_000, lastMessageAtMs: null }));
      expect(lane.holdsLock?.()).toBe(false);
      await expect(lane.transaction(async () => {
        await s.appendAuditUnread({ atMs: 1_000, event: 'question.asked', identity: 'failing' });
        expect(lane.holdsLock?.()).toBe(true);
        throw new Error('the unit fails after its entry');
      })).rejects.toThrow('the unit fails after its entry');
      // The savepoint's rollback let the lock go (another gateway may take it now); the lane must not say it holds it.
      expect(await heldAuditLocks(schema.url)).toBe(0);
      expect(lane.holdsLock?.()).toBe(false);
      // A later unit of the same group takes it again and keeps its entry.
      await lane.transaction(() => s.appendAuditUnread({ atMs: 2_000, event: 'question.asked', identity: 'kept' }));
      expect(lane.holdsLock?.()).toBe(true);
      expect(await heldAuditLocks(schema.url)).toBe(1);
      await lane.commitGroup();
      expect(lane.holdsLock?.()).toBe(false);
      const lines = await s.auditLines(0, 10);
      expect(lines.map((l) => l.index)).toEqual([0]);
      expect(lines[0].line).toContain('"kept"');
      expect(lines[0].line).not.toContain('"failing"');
    } finally {
      await s.close();
      await schema.drop();
    }
  });
});
