import { afterNextPaint } from './after-paint.ts';

/**
 * Focuses `target` without the synchronous layout that scrolling it into view costs, so the frame that shows it is not
 * held up; once that frame is out, brings it into view if it is not (a no-op when it already is).
 */
export function focusWithoutLayout(target: HTMLElement): void {
  target.focus({ preventScroll: true });
  const reveal = () => {
    if (target.isConnected && document.activeElement === target && typeof target.scrollIntoView === 'function')
      target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  };
  afterNextPaint(reveal);
}
