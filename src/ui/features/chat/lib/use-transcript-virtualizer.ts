import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import type { TranscriptEntry } from './interleave.ts';

/** Up to this many entries the whole conversation stays in the page, so find-in-page and screen readers see all of it. */
export const RENDER_ALL_UP_TO = 150;
/** Within this distance of the end the reader counts as following the conversation. */
const NEAR_END_PX = 48;

const renderedIndexes = (range: Range): number[] =>
  range.count <= RENDER_ALL_UP_TO ? Array.from({ length: range.count }, (_, i) => i) : defaultRangeExtractor(range);

/**
 * Windows a long conversation: only the rows near the viewport are in the DOM. Anchored at the end, as chats are:
 * it opens at the latest entry, follows new ones while the reader is at the end, and keeps the view steady when
 * older history is added above or a summary lands among earlier messages.
 */
export function useTranscriptVirtualizer(
  scrollRef: RefObject<HTMLElement | null>,
  listRef: RefObject<HTMLElement | null>,
  entries: readonly TranscriptEntry[],
) {
  // Where the rows start inside the scroll box: below the padding, "Load earlier" and any note.
  const [scrollMargin, setScrollMargin] = useState(0);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: useCallback((i: number) => (entries[i]?.kind === 'extra' ? 120 : 76), [entries]),
    getItemKey: useCallback((i: number) => entries[i]?.key ?? i, [entries]),
    rangeExtractor: renderedIndexes,
    overscan: 8,
    scrollMargin,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: NEAR_END_PX,
  });

  useLayoutEffect(() => {
    const top = listRef.current?.offsetTop ?? 0;
    if (top !== scrollMargin) setScrollMargin(top);
  });

  const following = useRef(true);
  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (el) following.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_END_PX;
  }, [scrollRef]);

  useLayoutEffect(() => {
    // Appends follow by themselves; an entry placed among earlier ones (a question's summary) must not push the end out of view.
    if (entries.length > 0 && following.current && !virtualizer.isAtEnd()) virtualizer.scrollToEnd();
  }, [entries, virtualizer]);

  return { virtualizer, onScroll };
}
