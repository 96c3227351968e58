import { afterNextPaint } from './after-paint.ts';

/**
 * Focuses `target` without the synchronous layout that scrolling it into view costs, so the frame that shows it is not
 * held up; once that frame has laid it out, brings it into view if it is not (a no-op when it already is).
 */
export function focusWithoutLayout(target: HTMLElement): void {
  target.focus({ preventScroll: true });
  const reveal = () => {
    if (target.isConnected && document.activeElement === target && typeof target.scrollIntoView === 'function')
      target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  };
  if (typeof IntersectionObserver !== 'function') {
    afterNextPaint(reveal);
    return;
  }
  // An observer's first report comes right after the frame's own layout: scrolling then reads that layout instead of
  // forcing a new one, as a task after the frame did once other put-off work had changed the page again.
  const observer = new IntersectionObserver(() => {
    observer.disconnect();
    reveal();
  });
  observer.observe(target);
}
