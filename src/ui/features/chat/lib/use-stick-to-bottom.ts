import { useCallback, useLayoutEffect, useRef, type RefObject } from 'react';

const NEAR_BOTTOM_PX = 48;

/**
 * Follows new content while the reader is at the bottom, leaves them alone when they scrolled up,
 * and keeps the view steady when older content is added above (`keepPositionOnce`).
 */
export function useStickToBottom(ref: RefObject<HTMLElement | null>, content: unknown) {
  const atBottom = useRef(true);
  const fromBottom = useRef<number | null>(null);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
  }, [ref]);

  const keepPositionOnce = useCallback(() => {
    const el = ref.current;
    if (el) fromBottom.current = el.scrollHeight - el.scrollTop;
  }, [ref]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (fromBottom.current !== null) {
      el.scrollTop = el.scrollHeight - fromBottom.current;
      fromBottom.current = null;
    } else if (atBottom.current) el.scrollTop = el.scrollHeight;
  }, [ref, content]);

  return { onScroll, keepPositionOnce };
}
