import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../protocol/index.ts';
import type { OutboxRow, OutboxState } from './machine.ts';
import { pendingChatMessages } from './pending-messages.ts';

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
});
