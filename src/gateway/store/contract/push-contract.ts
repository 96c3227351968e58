import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../types.ts';

/** U17: push keys and subscriptions; part of the store contract that store.contract.test.ts runs on every store. */
export function pushContract(current: () => Store): void {
  describe('push', async () => {
    let store: Store;
    beforeEach(() => { store = current(); });

    const sub = (endpoint: string, identity: string, createdAtMs: number) => ({ endpoint, identity, tokenHash: `t-${identity}`, p256dh: `p-${endpoint}`, auth: `a-${endpoint}`, createdAtMs });

    it('[U17] keeps the first VAPID key pair: a later one never replaces it', async () => {
      const first = await store.pushKeys({ publicKey: 'pub1', privateKey: 'priv1', createdAtMs: 1_000 });
      expect(first).toStrictEqual({ publicKey: 'pub1', privateKey: 'priv1', createdAtMs: 1_000 });
      expect(await store.pushKeys({ publicKey: 'pub2', privateKey: 'priv2', createdAtMs: 2_000 })).toStrictEqual(first);
    });

    it("[U17] keeps one subscription per endpoint, lists them per identity oldest first, deletes only an identity's own", async () => {
      await store.putPushSubscription(sub('https://push.example/a', 'op', 1_000));
      await store.putPushSubscription(sub('https://push.example/b', 'guest', 2_000));
      await store.putPushSubscription(sub('https://push.example/c', 'op', 3_000));
      // The same browser subscribed again by its identity: replaced, and now the newest.
      expect(await store.putPushSubscription({ ...sub('https://push.example/a', 'op', 4_000), tokenHash: 't-new' })).toStrictEqual({ stored: true, dropped: [] });
      expect(await store.listPushSubscriptions('op')).toStrictEqual([sub('https://push.example/c', 'op', 3_000), { ...sub('https://push.example/a', 'op', 4_000), tokenHash: 't-new' }]);
      expect((await store.listPushSubscriptions('guest')).map((s) => s.endpoint)).toStrictEqual(['https://push.example/b']);
      expect(await store.listPushSubscriptions()).toHaveLength(3);
      expect(await store.deletePushSubscription('https://push.example/b', 'op')).toBe(false);
      expect(await store.deletePushSubscription('https://push.example/b', 'guest')).toBe(true);
      expect(await store.deletePushSubscription('https://push.example/c')).toBe(true);
      expect(await store.deletePushSubscription('https://push.example/c')).toBe(false);
      expect((await store.listPushSubscriptions()).map((s) => s.endpoint)).toStrictEqual(['https://push.example/a']);
    });

    it("[U17] refuses an endpoint another identity holds: it stays that identity's, unchanged", async () => {
      await store.putPushSubscription(sub('https://push.example/a', 'op', 1_000));
      expect(await store.putPushSubscription(sub('https://push.example/a', 'guest', 2_000), 5)).toStrictEqual({ stored: false, reason: 'taken' });
      expect(await store.listPushSubscriptions()).toStrictEqual([sub('https://push.example/a', 'op', 1_000)]);
    });

    it('[U17] with keep, an identity keeps its newest subscriptions: the one past the cap drops its oldest, no one else\'s', async () => {
      await store.putPushSubscription(sub('https://push.example/other', 'guest', 500));
      for (let i = 1; i <= 5; i++) expect(await store.putPushSubscription(sub(`https://push.example/${i}`, 'op', i * 1_000), 5)).toStrictEqual({ stored: true, dropped: [] });
      // Re-subscribing the oldest makes it the newest: the cap still holds without dropping anything.
      expect(await store.putPushSubscription(sub('https://push.example/1', 'op', 6_000), 5)).toStrictEqual({ stored: true, dropped: [] });
      expect(await store.putPushSubscription(sub('https://push.example/6', 'op', 7_000), 5)).toStrictEqual({ stored: true, dropped: ['https://push.example/2'] });
      expect((await store.listPushSubscriptions('op')).map((s) => s.endpoint)).toStrictEqual(['3', '4', '5', '1', '6'].map((n) => `https://push.example/${n}`));
      expect(await store.putPushSubscription(sub('https://push.example/7', 'op', 8_000), 2)).toStrictEqual({
        stored: true,
        dropped: ['3', '4', '5', '1'].map((n) => `https://push.example/${n}`),
      });
      expect((await store.listPushSubscriptions()).map((s) => s.endpoint)).toStrictEqual(['other', '6', '7'].map((n) => `https://push.example/${n}`));
    });

    it('[U17][R3] a rolled-back transaction leaves no subscription behind', async () => {
      await store.putPushSubscription(sub('https://push.example/a', 'op', 1_000));
      await expect(async () =>
        store.transaction(async () => {
          await store.putPushSubscription(sub('https://push.example/b', 'op', 2_000));
          await store.deletePushSubscription('https://push.example/a');
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect((await store.listPushSubscriptions('op')).map((s) => s.endpoint)).toStrictEqual(['https://push.example/a']);
    });
  });
}
