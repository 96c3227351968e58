import { describe, expect, it } from 'vitest';
import { newSeed } from '../../audit/ed25519.ts';
import { signerFromSeed } from '../../audit/note.ts';
import { createMemoryStore } from '../store/memory.ts';
import type { Store } from '../store/types.ts';
import { AuditLog } from './audit-log.ts';

const ORIGIN = 'askdock.local/audit-test';
const keys = [{ ...signerFromSeed(ORIGIN, newSeed()), validFrom: '2026-12-01T00:00:00.000Z' }];

async function append(store: Store, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await store.appendAudit({ atMs: 1_000 + i, event: 'question.asked', identity: 'agent', questionId: `q-${i}` });
}

/**
 * The store as a gateway sees it on a database another gateway shares: right after this gateway read the log's entries
 * the other appends two and signs a checkpoint over them, before this one reads the checkpoints.
 */
function withAnotherGateway(store: Store): Store {
  let once = true;
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name !== 'auditLines') return Reflect.get(target, name, receiver);
      return async (from: number, to: number) => {
        const lines = await target.auditLines(from, to);
        if (once) {
          once = false;
          await append(target, 2);
          await new AuditLog(target, keys, ORIGIN).sign(5_000);
        }
        return lines;
      };
    },
  });
}

describe('the audit log beside another gateway (L2, L7)', () => {
  it('[L7] a checkpoint another gateway signs while the self-check reads is no failed check', async () => {
    const store = createMemoryStore();
    await append(store, 3);
    await new AuditLog(store, keys, ORIGIN).sign(2_000);
    expect(await new AuditLog(withAnotherGateway(store), keys, ORIGIN).selfCheck()).toEqual({ ok: true });
  });

  it('[L2] a checkpoint another gateway signs while this one signs is no error: this one answers the checkpoint over what it read', async () => {
    const store = createMemoryStore();
    await append(store, 3);
    await new AuditLog(store, keys, ORIGIN).sign(2_000);
    const note = await new AuditLog(withAnotherGateway(store), keys, ORIGIN).sign(6_000);
    expect(note?.split('\n')[1]).toBe('3');
    expect((await store.auditCheckpoints()).map((c) => c.size)).toEqual([3, 5]);
  });
});
