import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxRow } from './machine.ts';
import { FakeClient, outboxMaker } from '../../../testing/outbox-fakes.ts';
import { answer, firstSendUnanswered, stateOf, TEXT, until } from '../../../testing/outbox-answers.ts';

// U9: editing and discarding queued answers.
const { make, disposeAll } = outboxMaker();
afterEach(disposeAll);

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
    const { client, outbox, row } = await firstSendUnanswered(make);
    client.drop();
    await until(() => expect(stateOf(outbox, row.id)).toBe('unconfirmed'));
    expect(await outbox.discard(row.id)).toBeDefined();
    expect(client.sends[0].settled).toBe(true); // aborted: the client will not send it again
  });
});
