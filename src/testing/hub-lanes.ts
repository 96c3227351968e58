import { realClock } from '../gateway/infra/clock.ts';
import { memoryLogger } from '../gateway/infra/logger.ts';
import { EventHub, laneOf, type Tx } from '../gateway/hub/hub.ts';
import { Turn } from '../gateway/hub/turn.ts';
import type { SharedStore } from '../gateway/store/postgres/cluster.ts';

const session = (key: string) => ({ key, title: key, createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 0 });

/** A hub with lanes on a shared store, its events viewed as they are. */
export const laneHub = (store: SharedStore) =>
  new EventHub({ store, clock: realClock, view: (_v, _e, shared) => shared(), checkPayloads: false, log: memoryLogger().log, turn: new Turn(), onRollback: () => {} });

/** Two session keys whose units run in different lanes of `store`. */
export function twoLanes(store: SharedStore): { a: string; b: string } {
  const a = 'session-a';
  let b = 'session-b0';
  for (let i = 1; laneOf(b, store.lanes) === laneOf(a, store.lanes); i++) b = `session-b${i}`;
  return { a, b };
}

/** A unit's work that tells session `key` changed (one event in its lane). */
export const emitSession = (key: string) => (tx: Tx) => tx.emit('session.updated', { session: session(key) }, { sessionKey: key });

/** A unit of session `key` that stays open (so its lane's group cannot commit) until `release`. */
export function holdOpen(hub: EventHub, key: string) {
  let release!: () => void;
  const gate = new Promise<void>((ok) => (release = ok));
  const held = hub.commit(async (tx) => {
    await emitSession(key)(tx);
    await gate;
  }, key);
  return { held, release };
}
