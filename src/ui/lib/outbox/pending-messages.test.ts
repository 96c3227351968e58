import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../protocol/index.ts';
import type { OutboxRow, OutboxState } from './machine.ts';
import { pendingChatMessages, shownByHistory } from './pending-messages.ts';

const row = (id: string, state: OutboxState, extra: Partial<OutboxRow> = {}): OutboxRow => ({
  id,
  kind: 'message',
  idempotencyKey: `outbox-key-${id}`,
  sessionKey: 's1',
  text: `text ${id}`,
  state,
  createdAtMs: 1,
  updatedAtMs: 1,
  attempts: 0,
  ...extra,
});
const saved = (id: string, seq: number): ChatMessage => ({ id, sessionKey: 's1', role: 'user', text: `saved ${id}`, authorId: 'op', createdAtMs: seq, seq });
const ids = (rows: readonly OutboxRow[]) => rows.map((r) => r.id);

describe('the outbox chat messages the transcript shows (U11: once, with their state)', () => {
  it('[U11] every message not yet Sent shows, also before the history loaded; answers never show as messages', () => {
    const rows = [row('a', 'queued'), row('b', 'sending'), row('c', 'unconfirmed'), row('d', 'failed'), row('q', 'queued', { kind: 'answer', questionId: 'q1' })];
    expect(ids(pendingChatMessages(rows, undefined))).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(pendingChatMessages(rows, [saved('m1', 1)]))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('[U11] a Sent message shows until the history holds it, then only the history shows it', () => {
    const sent = row('a', 'sent', { messageId: 'm2', seq: 2 });
    expect(ids(pendingChatMessages([sent], [saved('m1', 1)]))).toEqual(['a']);
    expect(ids(pendingChatMessages([sent], [saved('m1', 1), saved('m2', 2)]))).toEqual([]);
  });

  it('[U11] a Sent message older than the loaded pages, or before any history loaded, does not show at the end', () => {
    const old = row('a', 'sent', { messageId: 'm2', seq: 2 });
    expect(ids(pendingChatMessages([old], [saved('m60', 60)]))).toEqual([]);
    expect(ids(pendingChatMessages([old], undefined))).toEqual([]);
    expect(ids(pendingChatMessages([row('b', 'sent', { messageId: 'm3' })], []))).toEqual([]);
  });

  it('[U11] a message whose answer was lost shows once: the history that already holds it shows it, not the row in flight', () => {
    const inFlight = row('a', 'sending', { text: 'note 4', createdAtMs: 1_000, attempts: 1 });
    const landed: ChatMessage = { id: 'm9', sessionKey: 's1', role: 'user', text: 'note 4', authorId: 'op', createdAtMs: 1_200, seq: 9 };
    expect(ids(pendingChatMessages([inFlight], [saved('m1', 1)]))).toEqual(['a']);
    expect(ids(pendingChatMessages([inFlight], [saved('m1', 1), landed]))).toEqual([]);
    expect(ids(pendingChatMessages([{ ...inFlight, state: 'unconfirmed' }], [landed]))).toEqual([]);
    // Not the same words, an agent's words, one saved long before it was typed, or one another row already claims: it shows.
    expect(ids(pendingChatMessages([inFlight], [{ ...landed, text: 'note 5' }]))).toEqual(['a']);
    expect(ids(pendingChatMessages([inFlight], [{ ...landed, role: 'assistant' }]))).toEqual(['a']);
    expect(ids(pendingChatMessages([{ ...inFlight, createdAtMs: 10 * 60_000 }], [landed]))).toEqual(['a']);
    const claimer = row('b', 'sent', { text: 'note 4', messageId: 'm9', seq: 9 });
    expect(ids(pendingChatMessages([claimer, inFlight], [landed]))).toEqual(['a']);
    // Two rows of the same words and one saved message: one row is shown, so the words show twice, as typed twice.
    expect(ids(pendingChatMessages([inFlight, { ...inFlight, id: 'c' }], [landed]))).toEqual(['c']);
    expect(shownByHistory([inFlight], inFlight)([landed])).toBe(true);
    expect(shownByHistory([inFlight], inFlight)([saved('m1', 1)])).toBe(false);
    // Queued (never sent) or Failed rows always show.
    expect(ids(pendingChatMessages([{ ...inFlight, state: 'failed' }], [landed]))).toEqual(['a']);
  });
});
