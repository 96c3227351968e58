import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { AskdockError } from '../../../protocol/index.ts';
import { FakeClient, outboxMaker } from '../../../testing/outbox-fakes.ts';
import { answer, firstSendFails, firstSendUnanswered, keysSent, stateOf, until } from '../../../testing/outbox-answers.ts';

// U11: sends cut off by a dropped connection, and Retry.
const { make, disposeAll } = outboxMaker();
afterEach(disposeAll);

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
    const { client, outbox, row } = await firstSendUnanswered(make);
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
    const { client, outbox, row } = await firstSendUnanswered(make);
    client.sends[0].reject(new AskdockError('UNAVAILABLE', 'timed out', { retryable: true }));
    await until(() => expect(stateOf(outbox, row.id)).toBe('unconfirmed'));
    await outbox.pump();
    await outbox.pump();
    expect(client.sends).toHaveLength(1);
  });

  it('[U9] Retry answer re-sends the same idempotency key', async () => {
    const { client, outbox, row } = await firstSendFails(make, new AskdockError('SESSION_NOT_FOUND', 'no session "s1"'));
    await until(() => expect(stateOf(outbox, row.id)).toBe('failed'));
    const retried = await outbox.retry(row.id);
    expect(retried).toMatchObject({ id: row.id, idempotencyKey: row.idempotencyKey });
    await until(() => expect(stateOf(outbox, row.id)).toBe('sent'));
    expect(keysSent(client)).toEqual([row.idempotencyKey, row.idempotencyKey]);
    expect(outbox.row(row.id)!.attempts).toBe(2);
  });

  it('[U9][U11] Retry answer on an unconfirmed row whose first send was saved answers deduped: still one message', async () => {
    const { client, outbox, row } = await firstSendUnanswered(make);
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
