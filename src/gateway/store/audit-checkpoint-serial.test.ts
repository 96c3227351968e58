import { describe, expect, it } from 'vitest';
import { databases, open } from '../../testing/audit-room-gateway.ts';

describe.each(databases)('the numbers of the checkpoints (L2, L7) on %s', (_name, makeDatabase) => {
  it('[L2][L7] the newest checkpoints deleted from the database: the next one stored takes a number never used before', async () => {
    const db = await open(makeDatabase);
    for (const size of [1, 2, 3]) await db.store.insertAuditCheckpoint({ size, note: `n${size}`, signedAtMs: size });
    const used = Math.max(...(await db.store.auditCheckpoints()).map((c) => c.serial));
    await db.run(`DELETE FROM audit_checkpoints WHERE size >= 2`);
    await db.store.insertAuditCheckpoint({ size: 4, note: 'n4', signedAtMs: 4 });
    const latest = await db.store.latestAuditCheckpoint();
    expect(latest).toMatchObject({ size: 4, note: 'n4' });
    expect(latest!.serial).toBeGreaterThan(used);
  });
});
