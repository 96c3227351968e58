// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createOutbox, type Outbox } from './outbox.ts';
import { FakeClient } from '../../../testing/outbox-fakes.ts';
import { createMemoryStorage } from './storage.ts';
import type { OutboxRow } from './machine.ts';
import {
  OutboxProvider,
  browserOutbox,
  useOutboxDiscarded,
  useOutboxHistoryConfirm,
  useOutboxRowForQuestion,
  useOutboxRows,
} from './use-outbox.ts';

const outboxes: Outbox[] = [];
afterEach(() => {
  cleanup();
  for (const o of outboxes.splice(0)) o.dispose();
});

function setup(status: 'connected' | 'offline' = 'offline') {
  const client = new FakeClient(status);
  const outbox = createOutbox({ client, storage: createMemoryStorage(), onError: () => {} });
  outboxes.push(outbox);
  const wrapper = ({ children }: { children: ReactNode }) => <OutboxProvider outbox={outbox}>{children}</OutboxProvider>;
  return { client, outbox, wrapper };
}

const input = (questionId: string, sessionKey = 's1') => ({ sessionKey, questionId, text: `> Lunch\n${questionId}` });

describe('outbox hooks', () => {
  it('[U9] useOutboxRows lists a session\'s rows and re-renders on change', async () => {
    const { outbox, wrapper } = setup();
    const { result } = renderHook(() => useOutboxRows('s1'), { wrapper });
    expect(result.current).toEqual([]);
    await act(() => outbox.enqueue(input('q1')));
    await act(() => outbox.enqueue(input('q2', 's2')));
    expect(result.current.map((r) => r.questionId)).toEqual(['q1']);
    const before = result.current;
    await act(() => outbox.enqueue(input('q3', 's2')));
    expect(result.current).toBe(before); // another session's change keeps this array
  });

  it('[U9] useOutboxRowForQuestion follows one question\'s row to Sent', async () => {
    const { client, outbox, wrapper } = setup();
    const { result } = renderHook(() => useOutboxRowForQuestion('q1'), { wrapper });
    expect(result.current).toBeUndefined();
    await act(() => outbox.enqueue(input('q1')));
    expect(result.current?.state).toBe('queued');
    act(() => client.reconnect());
    await waitFor(() => expect(result.current?.state).toBe('sent'));
  });

  it('[U9] useOutboxDiscarded hears discards so the dock can reopen the draft', async () => {
    const { outbox, wrapper } = setup();
    const seen: OutboxRow[] = [];
    renderHook(() => useOutboxDiscarded((r) => seen.push(r)), { wrapper });
    const row = await outbox.enqueue(input('q1'));
    await act(() => outbox.discard(row.id));
    expect(seen.map((r) => r.questionId)).toEqual(['q1']);
  });

  it('[U9] useOutboxHistoryConfirm confirms rows from loaded history', async () => {
    const { outbox, wrapper } = setup();
    const row = await outbox.enqueue(input('q1'));
    const messages = [
      { id: 'm8', sessionKey: 's1', role: 'user' as const, text: row.text, authorId: 'op', replyTo: { questionId: 'q1' }, createdAtMs: 0, seq: 8 },
    ];
    renderHook(() => useOutboxHistoryConfirm(messages), { wrapper });
    await waitFor(() => expect(outbox.row(row.id)).toMatchObject({ state: 'sent', messageId: 'm8' }));
  });

  it('browserOutbox makes one outbox per client, on IndexedDB', async () => {
    const client = new FakeClient('offline');
    const a = browserOutbox(client);
    outboxes.push(a);
    expect(browserOutbox(client)).toBe(a);
    await a.ready();
  });

  it('OutboxProvider without an outbox needs the gateway provider, and says so', () => {
    const Probe = () => <p>{useOutboxRows('s1').length}</p>;
    expect(() => render(<Probe />)).toThrow(/OutboxProvider/);
    expect(screen.queryByText('0')).not.toBeInTheDocument();
  });
});
