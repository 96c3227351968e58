import { afterEach, describe, expect, it } from 'vitest';
import { FakeClient } from '../../../testing/outbox-fakes.ts';
import { chatListenedEarly, lazyOutbox } from './lazy-outbox.ts';
import type { OutboxRow } from './machine.ts';
import { createOutbox, type Outbox } from './outbox.ts';
import { createMemoryStorage } from './storage.ts';

const made: Outbox[] = [];
afterEach(() => {
  for (const o of made.splice(0)) o.dispose();
});

/** A lazy outbox whose code arrives when the test says so (or fails to). */
function deferred() {
  const client = new FakeClient('offline');
  const loads: string[] = [];
  let arrive!: () => void;
  let fail!: (err: Error) => void;
  const outbox = lazyOutbox((tabId) => {
    loads.push(tabId);
    return new Promise<Outbox>((resolve, reject) => {
      arrive = () => {
        const real = createOutbox({ client, tabId, storage: createMemoryStorage(), onError: () => {} });
        made.push(real);
        resolve(real);
      };
      fail = reject;
    });
  });
  made.push(outbox);
  return { outbox, loads, arrive: () => arrive(), fail: (err: Error) => fail(err) };
}

describe('the outbox whose code loads after the first screen (U9-U11)', () => {
  it('[U11] has no rows before its code arrives, and a message queued meanwhile is kept and shown once it has', async () => {
    const { outbox, loads, arrive } = deferred();
    expect(loads).toEqual([outbox.tabId]);
    expect(outbox.rows('s1')).toEqual([]);
    let changes = 0;
    outbox.subscribe(() => changes++);
    const queued = outbox.enqueueMessage({ sessionKey: 's1', text: 'ship it' });
    arrive();
    const row = await queued;
    expect(row.text).toBe('ship it');
    expect(outbox.rows('s1').map((r) => r.text)).toEqual(['ship it']);
    expect(outbox.row(row.id)?.text).toBe('ship it');
    expect(changes).toBeGreaterThan(0);
  });

  it('[U9] a draft listener added before the code arrives hears a discarded answer', async () => {
    const { outbox, arrive } = deferred();
    const discarded: OutboxRow[] = [];
    outbox.onDiscarded((row) => discarded.push(row));
    arrive();
    const row = await outbox.enqueue({ sessionKey: 's1', questionId: 'q1', text: '> Lunch\nyes' });
    expect(outbox.rowForQuestion('q1')?.id).toBe(row.id);
    await outbox.discard(row.id);
    expect(discarded.map((r) => r.questionId)).toEqual(['q1']);
    expect(outbox.rowForQuestion('q1')).toBeUndefined();
  });

  it('[U11] a load that fails rejects the action that waited for it, and the next action loads again', async () => {
    const { outbox, loads, fail, arrive } = deferred();
    const first = outbox.ready();
    fail(new Error('Failed to fetch dynamically imported module'));
    await expect(first).rejects.toThrow(/Failed to fetch/);
    const second = outbox.enqueueMessage({ sessionKey: 's1', text: 'again' });
    expect(loads).toHaveLength(2);
    arrive();
    expect((await second).text).toBe('again');
  });
});

describe('the client the late outbox listens through', () => {
  it('[U11] a live message reaches the outbox before the page listeners added while its code was loading', () => {
    const client = new FakeClient('connected');
    const early = chatListenedEarly(client);
    const heard: string[] = [];
    client.on('chat', () => heard.push('log'));
    const off = early.on!('chat', () => heard.push('outbox'));
    const message: Parameters<FakeClient['emitChat']>[0] = { id: 'm1', sessionKey: 's1', role: 'user', text: 'ship it', authorId: 'op', createdAtMs: 1, seq: 1 };
    client.emitChat(message);
    off();
    client.emitChat(message);
    expect(heard).toEqual(['outbox', 'log', 'log']);
    expect(early.state).toBe(client.state);
  });
});
