import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import type { ChatMessage } from '../protocol/index.ts';

/**
 * jsdom lays nothing out: gives the log a viewport's size and every row a message's height, as a browser would
 * (call at the top of a transcript test file; restores the spies and unmounts after each test).
 */
export function fakeTranscriptLayout(): void {
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(600);
    vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(800);
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(DOMRect.fromRect({ width: 800, height: 70 }));
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });
}

/** Message `n` of session s1: the person's when odd, the agent's when even. */
export const transcriptMessage = (n: number): ChatMessage => ({
  id: `m${n}`,
  sessionKey: 's1',
  role: n % 2 ? 'user' : 'assistant',
  text: `Message number ${n}.`,
  authorId: 'someone',
  createdAtMs: n * 1000,
  seq: n,
});
