import { beforeEach, describe, expect, it } from 'vitest';
import { grant } from './contract-fixtures.ts';
import type { Store } from '../types.ts';

/** G5: policy grants; part of the store contract that store.contract.test.ts runs on every store. */
export function grantsContract(current: () => Store): void {
  describe('grants', () => {
    let store: Store;
    beforeEach(() => { store = current(); });

    it('[G5] stores grants and lists the live ones oldest first: unrevoked and not yet expired', async () => {
      await store.insertGrant(grant('g2', { createdAtMs: 2_000, scope: 'agent', agent: 'claude-code', sessionKey: undefined, expiresAt: 3_000 }));
      await store.insertGrant(grant('g1'));
      await store.insertGrant(grant('g3', { createdAtMs: 3_000, scope: 'everyone', sessionKey: undefined }));
      expect(await store.getGrant('g2')).toStrictEqual(grant('g2', { createdAtMs: 2_000, scope: 'agent', agent: 'claude-code', sessionKey: undefined, expiresAt: 3_000 }));
      expect(await store.getGrant('nope')).toBeUndefined();
      expect((await store.listGrants(2_999)).map((g) => g.id)).toEqual(['g1', 'g2', 'g3']);
      // Expiry: a grant is no longer live at its expiresAt.
      expect((await store.listGrants(3_000)).map((g) => g.id)).toEqual(['g1', 'g3']);
      await expect(async () => await store.insertGrant(grant('g1'))).rejects.toThrow();
    });

    it('[G5] a revoked grant is no longer live, keeps when it was revoked, and is revoked once', async () => {
      await store.insertGrant(grant('g1'));
      await store.insertGrant(grant('g2', { createdAtMs: 2_000 }));
      expect(await store.revokeGrant('g1', 5_000)).toBe(true);
      expect(await store.revokeGrant('g1', 6_000)).toBe(false);
      expect(await store.revokeGrant('missing', 6_000)).toBe(false);
      expect((await store.listGrants(5_000)).map((g) => g.id)).toEqual(['g2']);
      expect(await store.getGrant('g1')).toStrictEqual(grant('g1', { revokedAtMs: 5_000 }));
      expect((await store.listGrants()).map((g) => g.id)).toEqual(['g1', 'g2']);
    });

    it('[G5][R3] a grant made in a rolled-back transaction is not kept', async () => {
      await expect(async () =>
        store.transaction(async () => {
          await store.insertGrant(grant('g1'));
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(await store.getGrant('g1')).toBeUndefined();
    });
  });
}
