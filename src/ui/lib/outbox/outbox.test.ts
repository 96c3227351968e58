import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AskdockError, type ChatMessage } from '../../../protocol/index.ts';
import { formatAsyncAnswerText } from '../../../answers/async-reply.ts';
import type { OutboxRow } from './machine.ts';
import { createOutbox, messageConfirmsRow, type Outbox } from './outbox.ts';
import { FakeClient, channelHub, outboxMaker } from '../../../testing/outbox-fakes.ts';
import { createMemoryStorage, createOutboxStorage } from './storage.ts';

const lunch = { id: 'lunch', header: 'Lunch', question: 'What should we order?', options: [{ label: 'Pizza' }, { label: 'Sushi' }] };
const TEXT = formatAsyncAnswerText([lunch], { lunch: ['Sushi'] });
const answer = (questionId = 'q1', sessionKey = 's1', text = TEXT) => ({ sessionKey, questionId, text, answers: { lunch: ['Sushi'] } });

const { make, disposeAll } = outboxMaker();
afterEach(disposeAll);

const stateOf = (outbox: Outbox, id: string) => outbox.row(id)?.state;
// Generous: the bound only limits how long a failing test waits, and a busy machine runs these slowly.
const until = (check: () => void) => vi.waitFor(check, { timeout: 15_000, interval: 5 });
const keysSent = (client: FakeClient) => client.sends.map((c) => c.params.idempotencyKey);
/** An outbox whose client does not answer, once the answer row given to it has been sent. */
async function firstSendUnanswered() {
  const client = new FakeClient();
  client.autoAnswer = false;
  const outbox = make(client);
  const row = await outbox.enqueue(answer());
  await until(() => expect(client.sends).toHaveLength(1));
  return { client, outbox, row };
}
/** An outbox whose first chat.send fails with `err`, and the answer row given to it. */
async function firstSendFails(err: AskdockError) {
  const client = new FakeClient();
  client.failNext.push(err);
  const outbox = make(client);
  return { client, outbox, row: await outbox.enqueue(answer()) };
}

describe('outbox: sending', () => {
  it('[U9][Q9] an enqueued answer goes out as chat.send with replyTo and turns Sent once the gateway saved it', async () => {
    const client = new FakeClient('connected');
    const outbox = make(client);
    const row = await outbox.enqueue(answer());
    expect(row.state).toBe('queued');
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
    expect(client.sends).toHaveLength(1);
    expect(client.sends[0].params).toEqual({
      sessionKey: 's1',
      message: TEXT,
      idempotencyKey: row.idempotencyKey,
      replyTo: { questionId: 'q1', answers: { lunch: ['Sushi'] } },
    });
    expect(outbox.row(row.id)).toMatchObject({ messageId: 'm1', seq: 1, attempts: 1 });
    expect(outbox.row(row.id)!.sendingBy).toBeUndefined();
  });

  it('[U9] rejects an answer without text', async () => {
    const outbox = make(new FakeClient());
    await expect(outbox.enqueue(answer('q1', 's1', '  '))).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('[U10][U11] queued rows wait while offline and are sent when the client reports connected', async () => {
    const client = new FakeClient('reconnecting');
    const outbox = make(client);
    const row = await outbox.enqueue(answer());
    await outbox.pump();
    expect(client.sends).toHaveLength(0);
    expect(stateOf(outbox, row.id)).toBe('queued');
    client.reconnect();
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
    expect(client.sends).toHaveLength(1);
  });

  it('[U9] sends one at a time per session, in order, and sessions independently', async () => {
    const client = new FakeClient('reconnecting');
    client.autoAnswer = false;
    const outbox = make(client); // the real clock: several rows share a millisecond
    const a = await outbox.enqueue(answer('qa', 's1'));
    const b = await outbox.enqueue(answer('qb', 's1'));
    const c = await outbox.enqueue(answer('qc', 's2'));
    client.setStatus('connected');
    await until(() => expect(client.sends).toHaveLength(2));
    expect(client.sends.map((s) => (s.params.replyTo as { questionId: string }).questionId)).toEqual(['qa', 'qc']);
    expect(stateOf(outbox, b.id)).toBe('queued');
    client.answer(client.sends[0]);
    await until(() => expect(client.sends).toHaveLength(3));
    expect((client.sends[2].params.replyTo as { questionId: string }).questionId).toBe('qb');
    client.answer(client.sends[1]);
    client.answer(client.sends[2]);
    await until(() => expect([a, b, c].map((r) => stateOf(outbox, r.id))).toEqual(['sent', 'sent', 'sent']));
  });

  it('[U9] a second enqueue for the same question returns the same row (never a second answer)', async () => {
    const client = new FakeClient('offline');
    const outbox = make(client);
    const first = await outbox.enqueue(answer());
    const again = await outbox.enqueue({ ...answer(), text: '> Lunch\nPizza', answers: { lunch: ['Pizza'] } });
    expect(again.id).toBe(first.id);
    expect(again.idempotencyKey).toBe(first.idempotencyKey);
    expect(again.text).toBe('> Lunch\nPizza');
    expect(outbox.rows()).toHaveLength(1);
    client.reconnect();
    await until(() => expect(stateOf(outbox, first.id)).toBe('sent'));
    expect(await outbox.enqueue(answer())).toMatchObject({ id: first.id, state: 'sent' });
    await outbox.pump();
    expect(client.sends).toHaveLength(1);
  });

  it('[U9] a non-retryable error fails the row with the error shown', async () => {
    const { client, outbox, row } = await firstSendFails(new AskdockError('INVALID_REQUEST', 'invalid chat.send: message: must not be empty'));
    await until(() => expect(stateOf(outbox, row.id)).toBe('failed'));
    expect(outbox.row(row.id)!.error).toEqual({ code: 'INVALID_REQUEST', message: 'invalid chat.send: message: must not be empty' });
    await outbox.pump();
    expect(client.sends).toHaveLength(1); // a failed row waits for the person
  });

  it('[U9] answered elsewhere first: QUESTION_ALREADY_TERMINAL fails the row', async () => {
    const client = new FakeClient();
    client.messages.push(message({ id: 'm-other', text: '> Lunch\nPizza', replyTo: { questionId: 'q1' } }));
    const outbox = make(client);
    const row = await outbox.enqueue(answer());
    await until(() => expect(stateOf(outbox, row.id)).toBe('failed'));
    expect(outbox.row(row.id)!.error!.code).toBe('QUESTION_ALREADY_TERMINAL');
  });

  it('[U9][U11] QUESTION_ALREADY_TERMINAL for an answer that is this row\'s own saved message is Sent, not Failed', async () => {
    const client = new FakeClient();
    client.messages.push(message({ id: 'm-mine', text: TEXT, replyTo: { questionId: 'q1' } }));
    const outbox = make(client);
    const row = await outbox.enqueue(answer());
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
    expect(outbox.row(row.id)!.messageId).toBe('m-mine');
  });

  it('[U9] a retryable refusal (RATE_LIMITED) waits retryAfterMs and sends the same key again', async () => {
    const { client, outbox, row } = await firstSendFails(new AskdockError('RATE_LIMITED', 'too many messages', { retryable: true, retryAfterMs: 40 }));
    await until(() => expect(outbox.row(row.id)!.error?.code).toBe('RATE_LIMITED'));
    expect(stateOf(outbox, row.id)).toBe('queued');
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
    expect(keysSent(client)).toEqual([row.idempotencyKey, row.idempotencyKey]);
  });
  it('[U9] RATE_LIMITED counts as retryable even without the flag', async () => {
    const { client, outbox, row } = await firstSendFails(new AskdockError('RATE_LIMITED', 'too many messages', { retryAfterMs: 20 }));
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
    expect(client.sends).toHaveLength(2);
  });

  it('[U10] storage that cannot be read at start leaves a working, empty outbox', async () => {
    const storage = createMemoryStorage();
    const realTransact = storage.transact;
    let first = true;
    storage.transact = (change) => {
      if (first) {
        first = false;
        return Promise.reject(new Error('disk on fire'));
      }
      return realTransact(change);
    };
    const errors: unknown[] = [];
    const client = new FakeClient();
    const outbox = make(client, { storage, onError: (e) => errors.push(e) });
    await outbox.ready();
    expect(errors).toHaveLength(1);
    const row = await outbox.enqueue(answer());
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
  });

  it('lease renewals during a long send notify nobody', async () => {
    const client = new FakeClient();
    client.autoAnswer = false;
    const outbox = make(client, { leaseMs: 30 });
    const row = await outbox.enqueue(answer());
    await until(() => expect(stateOf(outbox, row.id)).toBe('sending'));
    const seen = outbox.row(row.id);
    let notified = 0;
    outbox.subscribe(() => notified++);
    // Two renewals, so the check is not made in the middle of the first one.
    await until(() => expect(outbox.row(row.id)!.leaseExpiresAtMs).toBeGreaterThan(seen!.leaseExpiresAtMs!));
    const renewed = outbox.row(row.id)!.leaseExpiresAtMs!;
    await until(() => expect(outbox.row(row.id)!.leaseExpiresAtMs).toBeGreaterThan(renewed));
    expect(stateOf(outbox, row.id)).toBe('sending');
    expect(notified).toBe(0);
  });
});

describe('outbox: dropped connections', () => {
  it('[U11] a drop mid-send marks the row Unconfirmed; the client\'s re-send makes it Sent with one message', async () => {
    const client = new FakeClient();
    client.autoAnswer = false;
    const outbox = make(client);
    const row = await outbox.enqueue(answer());
    await until(() => expect(stateOf(outbox, row.id)).toBe('sending'));
    client.saveWithoutAnswer(client.sends[0]); // saved, but the answer is lost with the connection
    client.drop();
    await until(() => expect(stateOf(outbox, row.id)).toBe('unconfirmed'));
    client.autoAnswer = true;
    client.reconnect(); // the real client re-sends the pending chat.send itself
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
    expect(client.sends).toHaveLength(1);
    expect(client.messages).toHaveLength(1);
    expect(outbox.row(row.id)!.messageId).toBe('m1');
  });

  it('[U11] a send the client gave up on (UNAVAILABLE) is Unconfirmed, then re-sent once with the same key on the next connection', async () => {
    const { client, outbox, row } = await firstSendUnanswered();
    client.saveWithoutAnswer(client.sends[0]);
    client.drop();
    client.sends[0].reject(new AskdockError('UNAVAILABLE', 'chat.send timed out after 30000 ms', { retryable: true }));
    await until(() => expect(stateOf(outbox, row.id)).toBe('unconfirmed'));
    await outbox.pump();
    expect(client.sends).toHaveLength(1);
    client.autoAnswer = true;
    client.reconnect();
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
    expect(keysSent(client)).toEqual([row.idempotencyKey, row.idempotencyKey]);
    expect(client.messages).toHaveLength(1); // deduped by the key
  });

  it('[U11] an unconfirmed row that still cannot be confirmed is not re-sent in a loop on one connection', async () => {
    const { client, outbox, row } = await firstSendUnanswered();
    client.sends[0].reject(new AskdockError('UNAVAILABLE', 'timed out', { retryable: true }));
    await until(() => expect(stateOf(outbox, row.id)).toBe('unconfirmed'));
    await outbox.pump();
    await outbox.pump();
    expect(client.sends).toHaveLength(1);
  });

  it('[U9] Retry answer re-sends the same idempotency key', async () => {
    const { client, outbox, row } = await firstSendFails(new AskdockError('SESSION_NOT_FOUND', 'no session "s1"'));
    await until(() => expect(stateOf(outbox, row.id)).toBe('failed'));
    const retried = await outbox.retry(row.id);
    expect(retried).toMatchObject({ id: row.id, idempotencyKey: row.idempotencyKey });
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
    expect(keysSent(client)).toEqual([row.idempotencyKey, row.idempotencyKey]);
    expect(outbox.row(row.id)!.attempts).toBe(2);
  });

  it('[U9][U11] Retry answer on an unconfirmed row whose first send was saved answers deduped: still one message', async () => {
    const { client, outbox, row } = await firstSendUnanswered();
    client.saveWithoutAnswer(client.sends[0]);
    client.drop();
    await until(() => expect(stateOf(outbox, row.id)).toBe('unconfirmed'));
    await outbox.retry(row.id);
    expect(stateOf(outbox, row.id)).toBe('queued');
    client.autoAnswer = true;
    client.reconnect();
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
    expect(new Set(keysSent(client))).toEqual(new Set([row.idempotencyKey]));
    expect(client.messages).toHaveLength(1);
  });
});

describe('outbox: edit and discard', () => {
  it('[U9][Q9] edit changes a queued row\'s text and drops its structured answers; the send carries no replyTo.answers', async () => {
    const client = new FakeClient('offline');
    const outbox = make(client);
    const row = await outbox.enqueue(answer());
    const edited = await outbox.edit(row.id, '> Lunch\nSushi, and some miso');
    expect(edited).toMatchObject({ text: '> Lunch\nSushi, and some miso', state: 'queued', idempotencyKey: row.idempotencyKey });
    expect(edited!.answers).toBeUndefined();
    client.reconnect();
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
    expect(client.sends[0].params).toMatchObject({ message: '> Lunch\nSushi, and some miso', replyTo: { questionId: 'q1' } });
    expect((client.sends[0].params.replyTo as { answers?: unknown }).answers).toBeUndefined();
  });

  it('[U9] edit and discard are refused while the row is sending', async () => {
    const client = new FakeClient();
    client.autoAnswer = false;
    const outbox = make(client);
    const row = await outbox.enqueue(answer());
    await until(() => expect(stateOf(outbox, row.id)).toBe('sending'));
    expect(await outbox.discard(row.id)).toBeUndefined();
    expect((await outbox.edit(row.id, 'other'))!.text).toBe(TEXT);
    expect(stateOf(outbox, row.id)).toBe('sending');
  });

  it('[U9] Discard removes a queued row, returns it and tells onDiscarded listeners', async () => {
    const outbox = make(new FakeClient('offline'));
    const seen: OutboxRow[] = [];
    outbox.onDiscarded((r) => seen.push(r));
    const row = await outbox.enqueue(answer());
    const gone = await outbox.discard(row.id);
    expect(gone).toMatchObject({ id: row.id, questionId: 'q1', answers: { lunch: ['Sushi'] } });
    expect(seen.map((r) => r.id)).toEqual([row.id]);
    expect(outbox.rows()).toEqual([]);
    expect(outbox.rowForQuestion('q1')).toBeUndefined();
  });

  it('[U9] discarding an unconfirmed row stops its pending send', async () => {
    const { client, outbox, row } = await firstSendUnanswered();
    client.drop();
    await until(() => expect(stateOf(outbox, row.id)).toBe('unconfirmed'));
    expect(await outbox.discard(row.id)).toBeDefined();
    expect(client.sends[0].settled).toBe(true); // aborted: the client will not send it again
  });
});

describe('outbox: history', () => {
  it('[U9] confirmFromHistory marks a row Sent when saved history shows its reply', async () => {
    const outbox = make(new FakeClient('offline'));
    const row = await outbox.enqueue(answer());
    const n = await outbox.confirmFromHistory([
      message({ id: 'x1', text: 'unrelated' }),
      message({ id: 'x2', text: TEXT + '\n', replyTo: { questionId: 'q1' } }),
    ]);
    expect(n).toBe(1);
    expect(outbox.row(row.id)).toMatchObject({ state: 'sent', messageId: 'x2' });
  });

  it('[U9] a live chat event confirms an in-flight row before the chat.send result arrives', async () => {
    const { client, outbox, row } = await firstSendUnanswered();
    client.emitChat(message({ id: 'm5', text: TEXT, replyTo: { questionId: 'q1' } }));
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
    client.sends[0].resolve({ messageId: 'm5', seq: 5, deduped: false });
    await until(() => expect(outbox.row(row.id)!.sendingBy).toBeUndefined());
    expect(outbox.row(row.id)!.messageId).toBe('m5');
  });

  it('matches a message by id, or by session, question and text', () => {
    const base: OutboxRow = {
      id: 'r',
      idempotencyKey: 'outbox-key-1',
      sessionKey: 's1',
      questionId: 'q1',
      text: TEXT,
      state: 'unconfirmed',
      createdAtMs: 0,
      updatedAtMs: 0,
      attempts: 1,
    };
    expect(messageConfirmsRow(base, message({ text: TEXT, replyTo: { questionId: 'q1' } }))).toBe(true);
    expect(messageConfirmsRow(base, message({ text: TEXT, replyTo: { questionId: 'q2' } }))).toBe(false);
    expect(messageConfirmsRow(base, message({ text: 'other', replyTo: { questionId: 'q1' } }))).toBe(false);
    expect(messageConfirmsRow(base, message({ text: TEXT, role: 'assistant', replyTo: { questionId: 'q1' } }))).toBe(false);
    expect(messageConfirmsRow({ ...base, messageId: 'm3' }, message({ id: 'm3', text: 'whatever' }))).toBe(true);
  });
});

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

function message(extra: Partial<ChatMessage>): ChatMessage {
  return { id: 'mx', sessionKey: 's1', role: 'user', text: '', authorId: 'operator', createdAtMs: 0, seq: 0, ...extra };
}

