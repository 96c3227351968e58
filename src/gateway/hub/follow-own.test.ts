import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../infra/logger.ts';
import { Listeners } from '../../lib/listeners.ts';
import { Follow, type FollowedStore } from './follow.ts';
import type { Group } from './units.ts';
import type { StoredEvent } from '../store/types.ts';

describe('D5 a gateway following its own commits', () => {
  it('[D5][R3] a very large commit of its own is taken without an error, so its catch-up is asked for (its seqs are not spread into one call)', async () => {
    const store = { onCommitted: () => () => {}, readCommitted: async () => [], settledSeq: (seq: number) => seq } as unknown as FollowedStore;
    const follow = new Follow({ store, log: memoryLogger().log, prepare: async () => {}, send: () => {}, allListeners: new Listeners<[StoredEvent]>() });
    const events = Array.from({ length: 200_000 }, (_, i) => ({ seq: i + 1, event: 'session.updated', payload: {}, atMs: 1 }) as unknown as StoredEvent);
    const group = { events, texts: [], waiting: [] } as unknown as Group;
    let known = false;
    expect(() => follow.ownCommit(group, true, () => (known = true), () => {})).not.toThrow();
    expect(known).toBe(true);
    follow.stopListening();
  });
});
