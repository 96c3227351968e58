import { describe, expect, it } from 'vitest';
import { RequestScope } from './hub.ts';
import { postgresStorePerTest } from '../../testing/postgres-store-per-test.ts';
import { emitSession, laneHub } from '../../testing/hub-lanes.ts';

const stores = postgresStorePerTest();

/**
 * The AsyncLocalStorage stores a promise carries: on Node 20 each enabled AsyncLocalStorage sets one property (named
 * `kResourceStore`) on every promise made anywhere in the process.
 */
const storesOn = (p: Promise<unknown>) => Object.getOwnPropertySymbols(p).filter((s) => s.description === 'kResourceStore').length;

describe('[D5] the context a PostgreSQL gateway keeps for its running code', () => {
  it('[D5] is one AsyncLocalStorage: a promise made in a unit of a request carries one store, not one per layer', async () => {
    const before = storesOn(Promise.resolve());
    const { store } = await stores.open('context');
    const hub = laneHub(store);
    expect(store.lanes).toBeGreaterThan(1);
    const scope = new RequestScope();
    // The request's scope (hub), what its reads wait for (store) and its unit's transaction (pool) are all set here.
    const carried = await hub.request(scope, () => Promise.resolve(), () =>
      hub.commit(async (tx) => {
        await emitSession('session-a')(tx);
        const inUnit = Promise.resolve();
        return storesOn(inUnit);
      }, 'session-a'),
    );
    expect(scope.groups.size).toBe(1);
    expect(carried - before).toBeLessThanOrEqual(1);
    expect(storesOn(Promise.resolve()) - before).toBeLessThanOrEqual(1);
  });
});
