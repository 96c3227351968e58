import { useCallback, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import type { TranscriptMessage } from './history-cache.ts';
import type { TranscriptEntry } from './interleave.ts';

/** Up to this many entries the whole conversation stays in the page, so find-in-page and screen readers see all of it. */
export const RENDER_ALL_UP_TO = 150;
/** Within this distance of the end the reader counts as following the conversation. */
const NEAR_END_PX = 48;

// Kept per message: every new entry makes the virtualizer lay out the whole list again from its estimates.
const estimates = new WeakMap<TranscriptMessage, number>();

/** Roughly a row's height before it is measured: the closer, the less the view is corrected as rows come into it. */
function estimateRow(entry: TranscriptEntry | undefined): number {
  if (entry?.kind !== 'message') return 120;
  let height = estimates.get(entry.message);
  if (height === undefined) {
    // A bubble holds about 90 characters a line at its widest; each line is 22 px under the author line.
    const lines = entry.message.text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 90)), 0);
    estimates.set(entry.message, (height = 48 + 22 * lines));
  }
  return height;
}

/**
 * Whether the reader follows the conversation's end after a scroll event. Near the end, they follow again. Away from
 * it, they stop following only by moving up themselves (`readerMoved`: a wheel, a touch, the scroll bar or a key just
 * before): a scroll event is read at the next frame, and the log may have shrunk meanwhile (the dock opened above the
 * composer in the same frame as a new message's scroll to the end), and rows measured smaller than their estimate move
 * the view up too; neither was a move of theirs.
 */
export function followsAfterScroll(
  following: boolean,
  lastTop: number,
  el: Pick<HTMLElement, 'scrollTop' | 'scrollHeight' | 'clientHeight'>,
  readerMoved = true,
): boolean {
  if (el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_END_PX) return true;
  return el.scrollTop < lastTop && readerMoved ? false : following;
}

/** A scroll event this soon after the reader's own input (a wheel turn, a drag, a key held) is theirs. */
const READER_INPUT_MS = 1000;

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
  /** Changes whenever what is shown above the rows changes ("Load earlier", a note). */
  header: string,
) {
  // Where the rows start inside the scroll box: below the padding, "Load earlier" and any note.
  const [scrollMargin, setScrollMargin] = useState(0);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: useCallback((i: number) => estimateRow(entries[i]), [entries]),
    getItemKey: useCallback((i: number) => entries[i]?.key ?? i, [entries]),
    rangeExtractor: renderedIndexes,
    overscan: 8,
    scrollMargin,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: NEAR_END_PX,
    // While every row is in the page, a scroll or a resize changes nothing the log shows but its busy flag: its render
    // waits for a task of its own instead of being forced inside the frame (the dock opening shrinks the log while the
    // previous answer's scroll to the end still counts as scrolling). Past that, the rows coming into view are drawn at once.
    useFlushSync: entries.length > RENDER_ALL_UP_TO,
  });

  useLayoutEffect(() => {
    // Read only when what sits above the rows changed: reading it forces a layout, and scrolls re-render often.
    const top = listRef.current?.offsetTop ?? 0;
    if (top !== scrollMargin) setScrollMargin(top);
  }, [listRef, scrollMargin, header]);

  const following = useRef(true);
  const lastTop = useRef(0);
  const readerInputAt = useRef(Number.NEGATIVE_INFINITY);
  const onReaderInput = useCallback(() => {
    readerInputAt.current = performance.now();
  }, []);
  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const readerMoved = performance.now() - readerInputAt.current < READER_INPUT_MS;
    following.current = followsAfterScroll(following.current, lastTop.current, el, readerMoved);
    lastTop.current = el.scrollTop;
  }, [scrollRef]);

  useLayoutEffect(() => {
    // A reader at the end stays there when the log changes size: it shrinks when the dock opens above the composer, and
    // it has no size at all while a suspended page hides it, when the scroll to the latest entry on opening did nothing.
    const el = scrollRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (following.current && el.scrollHeight - el.scrollTop - el.clientHeight > 1) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [scrollRef]);

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLElement>) => {
      onReaderInput();
      if (e.target !== e.currentTarget || e.altKey || e.shiftKey || e.metaKey || (e.key !== 'End' && e.key !== 'Home')) return;
      // The browser's animated End/Home would be cut short by the corrections for rows measured on the way.
      e.preventDefault();
      following.current = e.key === 'End';
      if (e.key === 'End') virtualizer.scrollToEnd();
      else e.currentTarget.scrollTo({ top: 0 });
    },
    [virtualizer, onReaderInput],
  );

  useLayoutEffect(() => {
    // Appends follow by themselves; an entry placed among earlier ones (a question's summary) must not push the end out of view.
    if (entries.length > 0 && following.current && !virtualizer.isAtEnd()) virtualizer.scrollToEnd();
  }, [entries, virtualizer]);

  return { virtualizer, onScroll, onKeyDown, onReaderInput };
}
