import { describe, expect, it } from 'vitest';
import { realClock } from '../infra/clock.ts';
import { memoryLogger } from '../infra/logger.ts';
import { EventHub, laneOf, type Tx } from '../hub/hub.ts';
import { Turn } from '../hub/turn.ts';
import type { GatewayConfig } from '../config.ts';
import { postgresStorePerTest } from '../../testing/postgres-store-per-test.ts';
import { ChannelCaller } from './caller.ts';

const stores = postgresStorePerTest();
const session = (key: string) => ({ key, title: key, createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 0 });
const emit = (key: string) => (tx: Tx) => tx.emit('session.updated', { session: session(key) }, { sessionKey: key });
/** What `p` came to, or 'held' if it had not within a generous while (it is expected to be long settled). */
const settledOrHeld = <T>(p: Promise<T>) => Promise.race([p, new Promise<'held'>((ok) => setTimeout(() => ok('held'), 5000))]);

describe('R3/E12 a channel call on a shared database', () => {
  it("[R3][E12] waits for the group its own unit joined, not another lane's: another group's fate is no answer to the press", async () => {
    const { store } = await stores.open('caller');
    const hub = new EventHub({ store, clock: realClock, view: (_v, _e, shared) => shared(), checkPayloads: false, log: memoryLogger().log, turn: new Turn(), onRollback: () => {} });
    const a = 'session-a';
    let b = 'session-b0';
    for (let i = 1; laneOf(b, store.lanes) === laneOf(a, store.lanes); i++) b = `session-b${i}`;
    // Another person's unit in session a's lane stays open, so that lane's group cannot commit (nor be known kept).
    let release!: () => void;
    const gate = new Promise<void>((ok) => (release = ok));
    const held = hub.commit(async (tx) => {
      await emit(a)(tx);
      await gate;
    }, a);
    await new Promise((ok) => setImmediate(ok));

    const config = { identities: [{ id: 'op', role: 'operator', scopes: ['operator.read', 'operator.write'] }] } as unknown as GatewayConfig;
    const caller = new ChannelCaller(hub, () => hub.commit(async (tx) => (await emit(b)(tx), { ok: true }), b), config, 'channel:test');
    expect(await settledOrHeld(caller.call('op', 'question.ack', { id: 'q1' } as never))).toEqual({ ok: true });

    release();
    await held;
  });
});
