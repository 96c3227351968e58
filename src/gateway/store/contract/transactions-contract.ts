import { beforeEach, describe, expect, it } from 'vitest';
import { event, seed, dump, writeEverything } from './contract-fixtures.ts';
import type { Store } from '../types.ts';

/** R3: transactions and groups; part of the store contract that store.contract.test.ts runs on every store. */
export function transactionsContract(current: () => Store): void {
  describe('transactions', () => {
    let store: Store;
    beforeEach(() => { store = current(); });

    it('[R3] commits every write of a transaction and returns its value', async () => {
      await seed(store);
      expect((await store.transaction(async () => ((await writeEverything(store)), 'done')))).toBe('done');
      expect((await store.getSession('s-new'))).toBeDefined();
      expect((await store.getMessage('m1'))?.text).toBe('edited');
      expect((await store.getQuestion('q1'))?.status).toBe('answered');
      expect((await store.getRun('r1'))?.stopReason).toBe('end_turn');
      expect((await store.eventsAfter(0, 10)).map((e) => e.seq)).toEqual([4]);
      expect((await store.getMeta('other'))).toBe('x');
    });

    it('[R3] leaves nothing behind when a transaction throws, and rethrows the same error', async () => {
      await seed(store);
      const before = await dump(store);
      const boom = new Error('boom');
      let caught: unknown;
      try {
        await store.transaction(async () => {
          await writeEverything(store);
          throw boom;
        });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBe(boom);
      expect((await dump(store))).toStrictEqual(before);
      expect((await store.appendEvent(event(10_000)))).toBe(3);
    });

    it('[R3] runs a nested transaction inside the outer one: rolled back together', async () => {
      await seed(store);
      const before = await dump(store);
      await expect(async () =>
        (await store.transaction(async () => {
          await store.setMeta('other', 'outer');
          await store.transaction(() => writeEverything(store));
          throw new Error('outer fails');
        })),
      ).rejects.toThrow('outer fails');
      expect((await dump(store))).toStrictEqual(before);
    });

    it('[R3] undoes only a failed nested transaction when the outer one catches it', async () => {
      await seed(store);
      await store.transaction(async () => {
        await store.setMeta('other', 'outer');
        await expect(async () =>
          (await store.transaction(async () => {
            await store.setMeta('boot', 'inner');
            await store.appendEvent(event(3_000));
            throw new Error('inner fails');
          })),
        ).rejects.toThrow('inner fails');
        await store.appendEvent(event(4_000));
      });
      expect((await store.getMeta('other'))).toBe('outer');
      expect((await store.getMeta('boot'))).toBe('one');
      expect((await store.eventsAfter(0, 10)).map((e) => [e.seq, e.atMs])).toEqual([
        [1, 1_000],
        [2, 2_000],
        [3, 4_000],
      ]);
    });

    it('[R3] a group keeps every transaction inside it: commitGroup keeps them all, rollbackGroup undoes them all', async () => {
      await seed(store);
      const before = await dump(store);
      await store.beginGroup();
      await store.transaction(async () => writeEverything(store));
      await store.transaction(async () => await store.appendEvent(event(5_000)));
      await store.rollbackGroup();
      expect((await dump(store))).toStrictEqual(before);

      await store.beginGroup();
      await store.transaction(async () => writeEverything(store));
      await store.commitGroup();
      expect((await store.getSession('s-new'))).toBeDefined();
      expect((await store.eventsAfter(0, 10)).map((e) => e.seq)).toEqual([4]);
    });

    it('[R3] a transaction that throws inside a group undoes only itself', async () => {
      await seed(store);
      await store.beginGroup();
      await store.transaction(async () => await store.setMeta('other', 'kept'));
      await expect(async () =>
        (await store.transaction(async () => {
          await store.setMeta('boot', 'undone');
          await store.appendEvent(event(3_000));
          throw new Error('inner fails');
        })),
      ).rejects.toThrow('inner fails');
      await store.transaction(async () => await store.appendEvent(event(4_000)));
      await store.commitGroup();
      expect((await store.getMeta('other'))).toBe('kept');
      expect((await store.getMeta('boot'))).toBe('one');
      expect((await store.eventsAfter(0, 10)).map((e) => [e.seq, e.atMs])).toEqual([
        [1, 1_000],
        [2, 2_000],
        [3, 4_000],
      ]);
    });

    it('refuses a group inside a transaction, and ending a group that was never begun', async () => {
      await expect(async () => await store.transaction(async () => await store.beginGroup())).rejects.toThrow(/beginGroup/);
      await expect(async () => await store.commitGroup()).rejects.toThrow(/commitGroup/);
      await expect(async () => await store.rollbackGroup()).rejects.toThrow(/rollbackGroup/);
    });

    it('[R3] a transaction holds every write its function awaits, also after other awaits, and undoes them all if it rejects', async () => {
      await expect(async () =>
        store.transaction(async () => {
          await store.setMeta('k', 'v');
          await new Promise((done) => setImmediate(done));
          await store.setMeta('k2', 'v2');
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(await store.getMeta('k')).toBeUndefined();
      expect(await store.getMeta('k2')).toBeUndefined();
      expect(
        await store.transaction(async () => {
          await store.setMeta('k', 'kept');
          return 1;
        }),
      ).toBe(1);
      expect(await store.getMeta('k')).toBe('kept');
    });
  });
}
