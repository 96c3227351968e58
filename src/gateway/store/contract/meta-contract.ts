import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../types.ts';

/** small stored values; part of the store contract that store.contract.test.ts runs on every store. */
export function metaContract(current: () => Store): void {
  describe('meta', () => {
    let store: Store;
    beforeEach(() => { store = current(); });

    it('stores and overwrites small values', async () => {
      expect((await store.getMeta('k'))).toBeUndefined();
      await store.setMeta('k', 'one');
      await store.setMeta('k', 'two');
      await store.setMeta('empty', '');
      expect((await store.getMeta('k'))).toBe('two');
      expect((await store.getMeta('empty'))).toBe('');
    });
  });
}
