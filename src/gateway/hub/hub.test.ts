import { describe, expect, it } from 'vitest';
import { realClock } from '../infra/clock.ts';
import { EventHub, type EventView, type Subscriber } from './hub.ts';
import { createMemoryStore } from '../store/memory.ts';
import { isDeadlock } from '../store/postgres/store.ts';
import type { Store } from '../store/types.ts';
import { Turn } from './turn.ts';
import type { Viewer } from '../sessions/visibility.ts';
import { memoryLogger } from '../infra/logger.ts';

const viewer: Viewer = { identity: { id: 'admin', role: 'operator', scopes: new Set(['operator.admin']) }, subscribed: () => true };
const session = { key: 's1', title: 'One', createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 0 };
const nextIteration = () => new Promise((ok) => setImmediate(ok));
/** The JSON inside a shared frame: it starts after the frame header, at its first "{". */
const frameText = (out: string | Buffer) => (typeof out === 'string' ? out : out.toString('utf8', out.indexOf('{')));

function setup(store: Store = createMemoryStore()) {
  const { log, lines: logs } = memoryLogger();
  const turn = new Turn();
  let rolledBack = 0;
  const hub = new EventHub({ store, clock: realClock, view: (_viewer, _ev, shared) => shared(), checkPayloads: false, log, turn, onRollback: () => rolledBack++ });
  const subscriber = (seenSeq = 0) => {
    const seqs: number[] = [];
    const sub: Subscriber = { viewer, send: (out) => seqs.push(JSON.parse(frameText(out)).seq) };
    hub.add(sub, seenSeq);
    return seqs;
  };
  const emit = () => hub.commit((tx) => tx.emit('session.updated', { session }, { sessionKey: 's1' }));
  return { store, hub, turn, logs, subscriber, emit, rolledBack: () => rolledBack };
}

describe('EventHub group commit', () => {
  it('[R1] sends the events of a turn, in order, only once the turn committed, and none of a commit that threw', async () => {
    const { hub, subscriber, emit } = setup();
    const seqs = subscriber();
    const after: number[] = [];
    expect(await emit()).toBe(1);
    await expect(
      hub.commit(async (tx) => {
        await tx.emit('session.updated', { session }, { sessionKey: 's1' });
        tx.after(() => after.push(2));
        throw new Error('handler fails');
      }),
    ).rejects.toThrow('handler fails');
    await hub.commit(async (tx) => {
      await tx.emit('session.updated', { session }, { sessionKey: 's1' });
      tx.after(() => after.push(3));
    });
    expect(seqs).toEqual([]);
    expect(after).toEqual([]);
    await nextIteration();
    // The failed commit's seq was undone with it, so the next one reuses it: clients never saw it.
    expect(seqs).toEqual([1, 2]);
    expect(after).toEqual([3]);
  });

  it('[D2] a unit the database undid to break a deadlock runs once more in the next group, and its events go out once', async () => {
    const memory = createMemoryStore();
    let failures = 1;
    const store: Store = {
      ...memory,
      mustRetry: isDeadlock,
      transaction: (fn) =>
        memory.transaction(async () => {
          const result = await fn();
          if (failures-- > 0) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
          return result;
        }),
    };
    const { hub, subscriber, emit } = setup(store);
    const seqs = subscriber();
    const ran: number[] = [];
    const got = hub.commit(async (tx) => {
      ran.push(await tx.emit('session.updated', { session }, { sessionKey: 's1' }));
      return 'kept';
    });
    await expect(got).resolves.toBe('kept');
    await emit();
    await nextIteration();
    // The first try's event was undone with it; the second try's and the next unit's went out, once each.
    expect(ran).toEqual([1, 1]);
    expect(seqs).toEqual([1, 2]);
    // Any other error fails the unit at once.
    await expect(hub.commit(async () => { throw new Error('plain failure'); })).rejects.toThrow('plain failure');
  });

  it('[R2] does not send a subscriber what its snapshot already covered', async () => {
    const { subscriber, emit } = setup();
    await emit();
    const late = subscriber(1);
    const early = subscriber(0);
    await emit();
    await nextIteration();
    expect(late).toEqual([2]);
    expect(early).toEqual([1, 2]);
  });

  it('[R3] answers wait for the turn to be durable, after its events; right away when nothing is uncommitted', async () => {
    const { hub, subscriber, emit } = setup();
    const order: string[] = [];
    const seqs = subscriber();
    hub.whenDurable((committed) => order.push(`before any write: ${committed}`));
    await emit();
    hub.whenDurable((committed) => order.push(`after a write: ${committed}, ${seqs.length} event sent`));
    expect(order).toEqual(['before any write: true']);
    await nextIteration();
    expect(order).toEqual(['before any write: true', 'after a write: true, 1 event sent']);
  });

  it('[R3] when the group commit fails, undoes the whole turn, sends no event, runs no after-hook, and tells the answers', async () => {
    const inner = createMemoryStore();
    let failCommit = true;
    const store: Store = {
      ...inner,
      commitGroup: async () => {
        if (failCommit) throw new Error('disk I/O error');
        await inner.commitGroup();
      },
    };
    const { hub, logs, subscriber, emit, rolledBack } = setup(store);
    const seqs = subscriber();
    let ran = false;
    await hub.commit(async (tx) => {
      await store.setMeta('k', 'v');
      await tx.emit('session.updated', { session }, { sessionKey: 's1' });
      tx.after(() => (ran = true));
    });
    const answers: boolean[] = [];
    hub.whenDurable((committed) => answers.push(committed));
    await nextIteration();
    expect(seqs).toEqual([]);
    expect(ran).toBe(false);
    expect(answers).toEqual([false]);
    expect((await store.getMeta('k'))).toBeUndefined();
    expect((await store.latestSeq())).toBe(0);
    expect(rolledBack()).toBe(1);
    expect(logs.join('\n')).toMatch(/disk I\/O error/);

    failCommit = false;
    await emit();
    await nextIteration();
    expect(seqs).toEqual([1]);
  });

  it('settles on demand, so a store can be closed right after', async () => {
    const { hub, store, subscriber, emit } = setup();
    const seqs = subscriber();
    await emit();
    await hub.settle();
    expect(seqs).toEqual([1]);
    await store.close();
  });
});

/** Each text frame in a buffer of one or more unmasked frames (short ones: 7-bit or 16-bit lengths). */
function frameTexts(out: string | Buffer): string[] {
  if (typeof out === 'string') return [out];
  const texts: string[] = [];
  for (let at = 0; at < out.length; ) {
    const short = out[at + 1];
    const head = short === 126 ? 4 : 2;
    const length = short === 126 ? out.readUInt16BE(at + 2) : short;
    texts.push(out.toString('utf8', at + head, at + head + length));
    at += head + length;
  }
  return texts;
}

describe('EventHub fan-out of a commit', () => {
  const guest: Viewer = { identity: { id: 'guest', role: 'operator', scopes: new Set(['operator.sessions.write']) }, subscribed: () => true };

  function setupShared(failOn?: number) {
    const { log, lines: logs } = memoryLogger();
    const turn = new Turn();
    // The admin sees every event; the guest only odd seqs; the view of seq `failOn` throws.
    const view: EventView = (v, ev, shared) => {
      if (ev.seq === failOn) throw new Error(`view of ${ev.seq} fails`);
      return v.identity.id === 'admin' || ev.seq % 2 === 1 ? shared() : null;
    };
    const hub = new EventHub({ store: createMemoryStore(), clock: realClock, view, checkPayloads: false, log, turn, onRollback: () => {}, shareKey: (v) => (v.identity.id === 'agent' ? null : v.identity) });
    const subscriber = (who: Viewer, seenSeq = 0) => {
      const writes: number[][] = [];
      hub.add({ viewer: who, send: (out) => writes.push(frameTexts(out).map((t) => JSON.parse(t).seq)) }, seenSeq);
      return writes;
    };
    const emitThree = () =>
      hub.commit(async (tx) => {
        for (let i = 0; i < 3; i++) await tx.emit('session.updated', { session }, { sessionKey: 's1' });
      });
    return { hub, logs, subscriber, emitThree };
  }

  it('[R1] gives the viewers of one key every frame of a commit in one write, in order; others get theirs one by one', async () => {
    const { hub, subscriber, emitThree } = setupShared();
    const admins = [subscriber(viewer), subscriber(viewer)];
    const guestTab = subscriber(guest);
    const agent = subscriber({ identity: { id: 'agent', role: 'agent', scopes: new Set(['agent.run']) }, subscribed: () => true });
    await emitThree();
    await hub.settle();
    for (const writes of admins) expect(writes).toEqual([[1, 2, 3]]);
    expect(guestTab).toEqual([[1, 3]]);
    // No shared key: event by event.
    expect(agent).toEqual([[1], [3]]);
  });

  it('[R2] a subscriber whose snapshot covered part of a commit gets the rest, event by event', async () => {
    const { hub, subscriber, emitThree } = setupShared();
    const full = subscriber(viewer, 0);
    const late = subscriber(viewer, 0);
    await emitThree();
    // As if its hello-ok snapshot had covered seq 1.
    const partial = subscriber(viewer, 1);
    await hub.settle();
    expect(full).toEqual([[1, 2, 3]]);
    expect(late).toEqual([[1, 2, 3]]);
    expect(partial).toEqual([[2], [3]]);
  });

  it('a view that fails for one event costs only that event, for every viewer of the key', async () => {
    const { hub, logs, subscriber, emitThree } = setupShared(2);
    const tabs = [subscriber(viewer), subscriber(viewer)];
    await emitThree();
    await hub.settle();
    for (const writes of tabs) expect(writes).toEqual([[1], [3]]);
    expect(logs.join('\n')).toMatch(/view of 2 fails/);
  });
});
