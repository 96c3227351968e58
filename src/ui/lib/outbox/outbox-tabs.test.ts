import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutboxRow } from './machine.ts';
import { FakeClient, channelHub, outboxMaker } from '../../../testing/outbox-fakes.ts';
import { answer, stateOf, TEXT, until } from '../../../testing/outbox-answers.ts';
import { createMemoryStorage, createOutboxStorage } from './storage.ts';

// U10/U11: reloads, and tabs sharing one outbox.
const { make, disposeAll } = outboxMaker();
afterEach(disposeAll);

describe('outbox: reload and tabs', () => {
  it('[U10] rows survive a new outbox instance on the same storage (reload)', async () => {
    const dbName = `outbox-reload-${Math.random()}`;
    const done = make(new FakeClient(), { storage: createOutboxStorage({ dbName }) });
    const sentRow = await done.enqueue(answer('q2'));
    await until(() => expect(stateOf(done, sentRow.id)).toBe('sent'));
    done.dispose();
    const before = make(new FakeClient('offline'), { storage: createOutboxStorage({ dbName }) });
    const queued = await before.enqueue(answer('q1'));
    before.dispose(); // the tab closes while offline

    const client = new FakeClient('offline');
    const after = make(client, { storage: createOutboxStorage({ dbName }) });
    await after.ready();
    expect(after.row(queued.id)).toMatchObject({ state: 'queued', idempotencyKey: queued.idempotencyKey, answers: { lunch: ['Sushi'] } });
    expect(after.rowForQuestion('q2')).toMatchObject({ state: 'sent', messageId: 'm1' }); // still confirmed after reload
    client.reconnect();
    await until(() => expect(stateOf(after, queued.id)).toBe('sent'));
    expect(client.sends[0].params.idempotencyKey).toBe(queued.idempotencyKey);
  });

  it('[U10] prunes sent rows older than keepSentMs at start, keeps the rest', async () => {
    const storage = createMemoryStorage();
    let t = 1_000;
    const first = make(new FakeClient(), { storage, now: () => t });
    const row = await first.enqueue(answer());
    await until(() => expect(stateOf(first, row.id)).toBe('sent'));
    first.dispose();
    t += 10_000;
    const kept = make(new FakeClient('offline'), { storage, now: () => t, keepSentMs: 60_000 });
    await kept.ready();
    expect(kept.rows()).toHaveLength(1);
    kept.dispose();
    const pruned = make(new FakeClient('offline'), { storage, now: () => t, keepSentMs: 5_000 });
    await pruned.ready();
    expect(pruned.rows()).toHaveLength(0);
  });

  it('[U10] tabs of one conversation stay in step through the channel', async () => {
    const hub = channelHub();
    const storage = createMemoryStorage();
    const tabA = make(new FakeClient('offline'), { storage, channel: hub.open() });
    const tabB = make(new FakeClient('offline'), { storage, channel: hub.open() });
    await Promise.all([tabA.ready(), tabB.ready()]);
    const row = await tabA.enqueue(answer());
    await until(() => expect(tabB.row(row.id)?.state).toBe('queued'));
    await tabB.edit(row.id, '> Lunch\nPizza');
    await until(() => expect(tabA.row(row.id)?.text).toBe('> Lunch\nPizza'));
  });

  it('[U9] Discard broadcasts the row to other tabs', async () => {
    const hub = channelHub();
    const storage = createMemoryStorage();
    const tabA = make(new FakeClient('offline'), { storage, channel: hub.open() });
    const tabB = make(new FakeClient('offline'), { storage, channel: hub.open() });
    const reopenedInB: OutboxRow[] = [];
    tabB.onDiscarded((r) => reopenedInB.push(r));
    const row = await tabA.enqueue(answer());
    await until(() => expect(tabB.row(row.id)).toBeDefined());
    await tabA.discard(row.id);
    await until(() => expect(reopenedInB.map((r) => r.id)).toEqual([row.id]));
    expect(reopenedInB[0]).toMatchObject({ questionId: 'q1', sessionKey: 's1', text: TEXT, answers: { lunch: ['Sushi'] } });
    expect(tabB.row(row.id)).toBeUndefined();
  });

  it('[U11] two connected tabs never send one row twice (send lease in shared storage)', async () => {
    const hub = channelHub();
    const dbName = `outbox-tabs-${Math.random()}`;
    const clientA = new FakeClient('offline');
    const clientB = new FakeClient('offline');
    for (const c of [clientA, clientB]) c.autoAnswer = false;
    const tabA = make(clientA, { storage: createOutboxStorage({ dbName }), channel: hub.open() });
    const tabB = make(clientB, { storage: createOutboxStorage({ dbName }), channel: hub.open() });
    await Promise.all([tabA.ready(), tabB.ready()]);
    const rows = await Promise.all([tabA.enqueue(answer('q1')), tabA.enqueue(answer('q2', 's2')), tabA.enqueue(answer('q3', 's3'))]);
    await until(() => expect(tabB.rows()).toHaveLength(3));
    // Both tabs come online at the same moment and both try to send every row.
    clientA.setStatus('connected');
    clientB.setStatus('connected');
    await Promise.all([tabA.pump(), tabB.pump(), tabA.pump(), tabB.pump()]);
    await until(() => expect(clientA.sends.length + clientB.sends.length).toBe(3));
    // Both tabs have heard of every claim before they try again: a second send now would be a double.
    for (const tab of [tabA, tabB]) await until(() => expect(rows.map((r) => tab.row(r.id)?.state)).toEqual(['sending', 'sending', 'sending']));
    await Promise.all([tabA.pump(), tabB.pump()]);
    const keys = [...clientA.sends, ...clientB.sends].map((c) => c.params.idempotencyKey);
    expect(new Set(keys).size).toBe(3);
    expect(keys).toHaveLength(3);
    for (const c of [...clientA.sends]) clientA.answer(c);
    for (const c of [...clientB.sends]) clientB.answer(c);
    await until(() => expect(rows.map((r) => tabB.row(r.id)?.state)).toEqual(['sent', 'sent', 'sent']));
  });

  it('[U11] a row left Sending by a closed tab is sent again with the same key once its lease runs out', async () => {
    const storage = createMemoryStorage();
    const clientA = new FakeClient();
    clientA.autoAnswer = false;
    const tabA = make(clientA, { storage, leaseMs: 80 });
    const row = await tabA.enqueue(answer());
    await until(() => expect(clientA.sends).toHaveLength(1));
    clientA.saveWithoutAnswer(clientA.sends[0]);
    tabA.dispose(); // the tab closes before the answer arrives

    const clientB = new FakeClient();
    clientB.messages.push(...clientA.messages);
    for (const [k, v] of clientA.byKey) clientB.byKey.set(k, v);
    // Tab B reads its own clock, so "the lease is still live" does not depend on how fast this machine gets here.
    let atB = 0;
    const tabB = make(clientB, { storage, leaseMs: 80, now: () => atB });
    await tabB.ready();
    expect(tabB.row(row.id)).toMatchObject({ state: 'sending', sendingBy: tabA.tabId });
    const expires = tabB.row(row.id)!.leaseExpiresAtMs!;
    atB = expires - 1;
    await tabB.pump();
    expect(clientB.sends).toHaveLength(0); // the lease is still live
    atB = expires + 1;
    await tabB.pump();
    await until(() => expect(stateOf(tabB, row.id)).toBe('sent'));
    expect(clientB.sends.map((c) => c.params.idempotencyKey)).toEqual([row.idempotencyKey]);
    expect(clientB.messages).toHaveLength(1);
  });

  it('[U11] a tab renews its lease while a send is out, so another tab does not take the row over', async () => {
    const hub = channelHub();
    const storage = createMemoryStorage();
    const clientA = new FakeClient();
    clientA.autoAnswer = false;
    // Seconds, so no stall of a busy machine outlasts a renewal.
    const tabA = make(clientA, { storage, leaseMs: 3_000, channel: hub.open() });
    const row = await tabA.enqueue(answer());
    await until(() => expect(clientA.sends).toHaveLength(1));
    const clientB = new FakeClient();
    const tabB = make(clientB, { storage, leaseMs: 3_000, channel: hub.open() });
    await tabB.ready();
    const firstExpiry = (await storage.get(row.id))!.leaseExpiresAtMs!;
    // Tab B keeps trying until tab A renewed past a whole lease: the claim it first took would have run out by then.
    await vi.waitFor(
      async () => {
        await tabB.pump();
        expect((await storage.get(row.id))!.leaseExpiresAtMs!).toBeGreaterThan(firstExpiry + 3_000);
      },
      { timeout: 20_000, interval: 100 },
    );
    await tabB.pump();
    expect(clientB.sends).toHaveLength(0);
    clientA.answer(clientA.sends[0]);
    await until(() => expect(tabB.row(row.id)?.state).toBe('sent'));
  }, 30_000);
});
