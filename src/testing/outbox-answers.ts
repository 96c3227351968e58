import { expect, vi } from 'vitest';
import type { AskdockError, ChatMessage } from '../protocol/index.ts';
import { formatAsyncAnswerText } from '../answers/async-reply.ts';
import type { Outbox } from '../ui/lib/outbox/outbox.ts';
import { FakeClient, type outboxMaker } from './outbox-fakes.ts';

// The answers the outbox tests (src/ui/lib/outbox/outbox-*.test.ts) queue, and what they read back.

type MakeOutbox = ReturnType<typeof outboxMaker>['make'];

const lunch = { id: 'lunch', header: 'Lunch', question: 'What should we order?', options: [{ label: 'Pizza' }, { label: 'Sushi' }] };
export const TEXT = formatAsyncAnswerText([lunch], { lunch: ['Sushi'] });
export const answer = (questionId = 'q1', sessionKey = 's1', text = TEXT) => ({ sessionKey, questionId, text, answers: { lunch: ['Sushi'] } });

export const stateOf = (outbox: Outbox, id: string) => outbox.row(id)?.state;
// Generous: the bound only limits how long a failing test waits, and a busy machine runs these slowly.
export const until = (check: () => void) => vi.waitFor(check, { timeout: 15_000, interval: 5 });
export const keysSent = (client: FakeClient) => client.sends.map((c) => c.params.idempotencyKey);
/** An outbox whose client does not answer, once the answer row given to it has been sent. */
export async function firstSendUnanswered(make: MakeOutbox) {
  const client = new FakeClient();
  client.autoAnswer = false;
  const outbox = make(client);
  const row = await outbox.enqueue(answer());
  await until(() => expect(client.sends).toHaveLength(1));
  return { client, outbox, row };
}
/** An outbox whose first chat.send fails with `err`, and the answer row given to it. */
export async function firstSendFails(make: MakeOutbox, err: AskdockError) {
  const client = new FakeClient();
  client.failNext.push(err);
  const outbox = make(client);
  return { client, outbox, row: await outbox.enqueue(answer()) };
}

export function message(extra: Partial<ChatMessage>): ChatMessage {
  return { id: 'mx', sessionKey: 's1', role: 'user', text: '', authorId: 'operator', createdAtMs: 0, seq: 0, ...extra };
}
