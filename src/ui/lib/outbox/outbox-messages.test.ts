import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AskdockError, type ChatMessage } from '../../../protocol/index.ts';
import { OutboxRow } from './machine.ts';
import { FakeClient, outboxMaker } from '../../../testing/outbox-fakes.ts';
import { createOutboxStorage } from './storage.ts';
import { read } from '../shape.ts';

const { make, disposeAll } = outboxMaker();
afterEach(disposeAll);

// Generous: the bound only limits how long a failing test waits, and a busy machine runs these slowly.
const until = (check: () => void) => vi.waitFor(check, { timeout: 15_000, interval: 5 });
const savedTexts = (client: FakeClient, sessionKey = 's1') => client.messages.filter((m) => m.sessionKey === sessionKey).map((m) => m.text);

describe('outbox: chat messages typed in the composer', () => {
  it('[U11][C2] a message typed offline is stored, survives a reload, and reaches the gateway once, without replyTo, on its one key', async () => {
    const dbName = `outbox-message-reload-${Math.random()}`;
    const before = make(new FakeClient('reconnecting'), { storage: createOutboxStorage({ dbName }) });
    const queued = await before.enqueueMessage({ sessionKey: 's1', text: 'ship it' });
    expect(queued).toMatchObject({ kind: 'message', state: 'queued', text: 'ship it' });
    expect(queued.questionId).toBeUndefined();
    before.dispose();

    // The page reloads while still offline: the message is there, Queued, with the same key.
    const client = new FakeClient('reconnecting');
    const after = make(client, { storage: createOutboxStorage({ dbName }) });
    await after.ready();
    expect(after.rows('s1')).toEqual([expect.objectContaining({ id: queued.id, state: 'queued', idempotencyKey: queued.idempotencyKey })]);
    expect(client.sends).toHaveLength(0);

    client.reconnect();
    await until(() => expect(after.row(queued.id)?.state).toBe('sent'));
    expect(client.sends.map((c) => c.params)).toEqual([{ sessionKey: 's1', message: 'ship it', idempotencyKey: queued.idempotencyKey }]);
    expect(savedTexts(client)).toEqual(['ship it']);
    expect(after.row(queued.id)).toMatchObject({ messageId: 'm1', seq: 1 });
  });

  it('[U11][C2] a send whose answer the drop lost goes again on the same key: the gateway keeps one message', async () => {
    const client = new FakeClient('connected');
    client.autoAnswer = false;
    const outbox = make(client);
    const row = await outbox.enqueueMessage({ sessionKey: 's1', text: 'hello' });
    await until(() => expect(client.sends).toHaveLength(1));
    client.saveWithoutAnswer(client.sends[0]);
    client.drop();
    await until(() => expect(outbox.row(row.id)?.state).toBe('unconfirmed'));

    client.autoAnswer = true;
    client.reconnect();
    await until(() => expect(outbox.row(row.id)?.state).toBe('sent'));
    expect(new Set(client.sends.map((c) => c.params.idempotencyKey))).toEqual(new Set([row.idempotencyKey]));
    expect(savedTexts(client)).toEqual(['hello']);
  });

  it('[U11] the same words sent twice are two messages, each on a key of its own, in the order typed', async () => {
    const client = new FakeClient('reconnecting');
    const outbox = make(client);
    const first = await outbox.enqueueMessage({ sessionKey: 's1', text: 'ok' });
    const second = await outbox.enqueueMessage({ sessionKey: 's1', text: 'ok' });
    expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
    expect(outbox.rows('s1').map((r) => r.id)).toEqual([first.id, second.id]);
    client.reconnect();
    await until(() => expect(outbox.rows('s1').map((r) => r.state)).toEqual(['sent', 'sent']));
    expect(savedTexts(client)).toEqual(['ok', 'ok']);
  });

  it('[U11] a saved message with the same words does not confirm a queued one: only its own id does', async () => {
    const outbox = make(new FakeClient('reconnecting'));
    const row = await outbox.enqueueMessage({ sessionKey: 's1', text: 'ok' });
    const earlier: ChatMessage = { id: 'm9', sessionKey: 's1', role: 'user', text: 'ok', authorId: 'operator', createdAtMs: 1, seq: 9 };
    expect(await outbox.confirmFromHistory([earlier])).toBe(0);
    expect(outbox.row(row.id)?.state).toBe('queued');
  });

  it('[U11] a refused message is Failed with what the gateway said; Retry sends it again on the same key', async () => {
    const client = new FakeClient('connected');
    client.failNext.push(new AskdockError('FORBIDDEN', 'not in this session'));
    const outbox = make(client);
    const row = await outbox.enqueueMessage({ sessionKey: 's1', text: 'hi' });
    await until(() => expect(outbox.row(row.id)).toMatchObject({ state: 'failed', error: { code: 'FORBIDDEN', message: 'not in this session' } }));
    await outbox.retry(row.id);
    await until(() => expect(outbox.row(row.id)?.state).toBe('sent'));
    expect(client.sends.map((c) => c.params.idempotencyKey)).toEqual([row.idempotencyKey, row.idempotencyKey]);
    expect(savedTexts(client)).toEqual(['hi']);
  });

  it('[U11] a message needs text, and a gone session reads as such (not as a gone question)', async () => {
    const client = new FakeClient('connected');
    const outbox = make(client);
    await expect(outbox.enqueueMessage({ sessionKey: 's1', text: ' \n' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    client.failNext.push(new AskdockError('SESSION_NOT_FOUND', 'session "s1" not found'));
    const row = await outbox.enqueueMessage({ sessionKey: 's1', text: 'hi' });
    await until(() => expect(outbox.row(row.id)?.error?.message).toBe('Not delivered: the session is no longer there.'));
  });

  it('[U10] rows stored before messages used the outbox (no kind) still read as answers', () => {
    const old = { id: 'r1', idempotencyKey: 'outbox-abcdefgh', sessionKey: 's1', questionId: 'q1', text: 'x', state: 'queued', createdAtMs: 1, updatedAtMs: 1, attempts: 0 };
    expect(read(OutboxRow, old)).toMatchObject({ questionId: 'q1' });
    expect(read(OutboxRow, old)?.kind).toBeUndefined();
  });
});
