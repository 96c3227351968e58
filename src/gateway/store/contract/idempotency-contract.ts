import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../types.ts';

/** C2: idempotency keys of sends; part of the store contract that store.contract.test.ts runs on every store. */
export function idempotencyContract(current: () => Store): void {
  describe('idempotency', () => {
    let store: Store;
    beforeEach(() => { store = current(); });

    it('[C2] remembers the first result per identity and key', async () => {
      expect((await store.getIdempotent('op', 'key-0001'))).toBeUndefined();
      await store.putIdempotent('op', 'key-0001', { messageId: 'm1', seq: 1 }, 1_000);
      expect((await store.getIdempotent('op', 'key-0001'))).toStrictEqual({ messageId: 'm1', seq: 1 });
      expect((await store.getIdempotent('guest', 'key-0001'))).toBeUndefined();
      await store.putIdempotent('op', 'key-0001', { messageId: 'm2', seq: 2 }, 2_000);
      expect((await store.getIdempotent('op', 'key-0001'))).toStrictEqual({ messageId: 'm1', seq: 1 });
      await store.putIdempotent('guest', 'key-0001', { messageId: 'm3', seq: 3 }, 3_000);
      expect((await store.getIdempotent('guest', 'key-0001'))).toStrictEqual({ messageId: 'm3', seq: 3 });
    });

    it('[C2] a key put inside a write transaction is seen by a check in that same transaction, and leaves with its rollback', async () => {
      // The gateway checks and claims a key inside one write transaction, so two sends racing on one key make one message.
      const seen = await store.transaction(async () => {
        const before = await store.getIdempotent('op', 'key-in-tx');
        await store.putIdempotent('op', 'key-in-tx', { messageId: 'm1', seq: 1 }, 1);
        return { before, after: (await store.getIdempotent('op', 'key-in-tx')) };
      });
      expect(seen).toStrictEqual({ before: undefined, after: { messageId: 'm1', seq: 1 } });
      await expect(async () =>
        (await store.transaction(async () => {
          await store.putIdempotent('op', 'key-undone', { messageId: 'm2', seq: 2 }, 2);
          throw new Error('undo');
        })),
      ).rejects.toThrow('undo');
      expect((await store.getIdempotent('op', 'key-undone'))).toBeUndefined();
    });

    it('[C2] keeps keys that only differ in how identity and key split apart', async () => {
      await store.putIdempotent('a', 'b:c', { messageId: 'm1', seq: 1 }, 1);
      await store.putIdempotent('a:b', 'c', { messageId: 'm2', seq: 2 }, 1);
      expect((await store.getIdempotent('a', 'b:c'))?.messageId).toBe('m1');
      expect((await store.getIdempotent('a:b', 'c'))?.messageId).toBe('m2');
    });
  });
}
