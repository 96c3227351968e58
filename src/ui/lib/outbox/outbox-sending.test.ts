import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { AskdockError } from '../../../protocol/index.ts';
import { FakeClient, outboxMaker } from '../../../testing/outbox-fakes.ts';
import { answer, firstSendFails, keysSent, message, stateOf, TEXT, until } from '../../../testing/outbox-answers.ts';
import { createMemoryStorage } from './storage.ts';

// U9/U10: sending answers, refusals and retries.
const { make, disposeAll } = outboxMaker();
afterEach(disposeAll);

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
    const { client, outbox, row } = await firstSendFails(make, new AskdockError('INVALID_REQUEST', 'invalid chat.send: message: must not be empty'));
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
    const { client, outbox, row } = await firstSendFails(make, new AskdockError('RATE_LIMITED', 'too many messages', { retryable: true, retryAfterMs: 40 }));
    await until(() => expect(outbox.row(row.id)!.error?.code).toBe('RATE_LIMITED'));
    expect(stateOf(outbox, row.id)).toBe('queued');
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
    expect(keysSent(client)).toEqual([row.idempotencyKey, row.idempotencyKey]);
  });
  it('[U9] RATE_LIMITED counts as retryable even without the flag', async () => {
    const { client, outbox, row } = await firstSendFails(make, new AskdockError('RATE_LIMITED', 'too many messages', { retryAfterMs: 20 }));
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
