import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../protocol/index.ts';
import { endStreams, flattenHistory, upsertMessage, type HistoryData } from './history-cache.ts';
import { interleave } from './interleave.ts';

const msg = (id: string, createdAtMs: number, text = id, role: ChatMessage['role'] = 'user'): ChatMessage => ({
  id,
  sessionKey: 's',
  role,
  text,
  authorId: 'op',
  createdAtMs,
  seq: createdAtMs,
});

const data = (...pages: ChatMessage[][]): HistoryData => ({
  pages: pages.map((messages) => ({ messages, hasMore: false })),
  pageParams: pages.map((_, i) => (i === 0 ? undefined : `p${i}`)),
});

describe('history cache', () => {
  it('[C5] appends a new live message to the newest page', () => {
    const next = upsertMessage(data([msg('a', 1)]), msg('b', 2), false);
    expect(flattenHistory(next).map((m) => m.id)).toEqual(['a', 'b']);
  });

  it('[C5] a streaming delta replaces the text of the same message, and final ends the stream', () => {
    let d = upsertMessage(data([msg('a', 1)]), msg('r', 2, 'Hel', 'assistant'), true);
    d = upsertMessage(d, msg('r', 2, 'Hello wor', 'assistant'), true);
    expect(flattenHistory(d).at(-1)).toMatchObject({ id: 'r', text: 'Hello wor', streaming: true });
    d = upsertMessage(d, msg('r', 2, 'Hello world', 'assistant'), false);
    const last = flattenHistory(d).at(-1)!;
    expect(last.text).toBe('Hello world');
    expect(last.streaming).toBeUndefined();
    expect(flattenHistory(d)).toHaveLength(2);
  });

  it('[C3] lists older pages first and drops duplicates from overlapping pages', () => {
    const d = data([msg('c', 3), msg('d', 4)], [msg('a', 1), msg('b', 2), msg('c', 3)]);
    expect(flattenHistory(d).map((m) => m.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('[C4] a run that ends without a final message stops its stream', () => {
    const streaming = upsertMessage(data([msg('a', 1)]), { ...msg('r', 2, 'half', 'assistant'), runId: 'run1' }, true);
    const ended = endStreams(streaming, 'run1');
    expect(flattenHistory(ended).at(-1)).toMatchObject({ id: 'r', text: 'half' });
    expect(flattenHistory(ended).at(-1)!.streaming).toBeUndefined();
    expect(endStreams(ended, 'run1')).toBe(ended);
  });

  it('ignores events for a session whose history is not loaded', () => {
    expect(upsertMessage(undefined, msg('a', 1), false)).toBeUndefined();
  });
});

describe('interleave', () => {
  it('places extra items between messages by time, messages first on a tie', () => {
    const entries = interleave(
      [msg('a', 10), msg('b', 20)],
      [
        { key: 'late', atMs: 30, node: null },
        { key: 'tie', atMs: 10, node: null },
        { key: 'early', atMs: 5, node: null },
      ],
    );
    expect(entries.map((e) => e.key)).toEqual(['x:early', 'm:a', 'x:tie', 'm:b', 'x:late']);
  });
});
