import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxRow } from './machine.ts';
import { messageConfirmsRow } from './outbox.ts';
import { FakeClient, outboxMaker } from '../../../testing/outbox-fakes.ts';
import { answer, firstSendUnanswered, message, stateOf, TEXT, until } from '../../../testing/outbox-answers.ts';

// U9: rows confirmed from history and chat events.
const { make, disposeAll } = outboxMaker();
afterEach(disposeAll);

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
    const { client, outbox, row } = await firstSendUnanswered(make);
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
