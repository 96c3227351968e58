import { describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../config.ts';
import { postgresStorePerTest } from '../../testing/postgres-store-per-test.ts';
import { emitSession, holdOpen, laneHub, twoLanes } from '../../testing/hub-lanes.ts';
import { ChannelCaller } from './caller.ts';

const stores = postgresStorePerTest();

describe('R3/E12 a channel call on a shared database', () => {
  it("[R3][E12] waits for the group its own unit joined, not another lane's: another group's fate is no answer to the press", async () => {
    const { store } = await stores.open('caller');
    const hub = laneHub(store);
    const { a, b } = twoLanes(store);
    // Another person's unit in session a's lane stays open, so that lane's group cannot commit (nor be known kept).
    const { held, release } = holdOpen(hub, a);
    await new Promise((ok) => setImmediate(ok));

    const config = { identities: [{ id: 'op', role: 'operator', scopes: ['operator.read', 'operator.write'] }] } as unknown as GatewayConfig;
    const caller = new ChannelCaller(hub, () => hub.commit(async (tx) => (await emitSession(b)(tx), { ok: true }), b), config, 'channel:test');
    // Awaited as it is: had it waited for session a's group, it would wait until release() below, so into the test's
    // timeout however fast the machine is (no race against a timer of a few seconds).
    expect(await caller.call('op', 'question.ack', { id: 'q1' } as never)).toEqual({ ok: true });

    release();
    await held;
  });
});
