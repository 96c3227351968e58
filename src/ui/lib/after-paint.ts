/**
 * Runs `fn` in a task after the next frame is out, so work that can wait (a storage write, scrolling into view) does
 * not hold up what that frame shows. A hidden tab draws no frames: there it runs after a timer.
 */
export function afterNextPaint(fn: () => void): void {
  const hidden = typeof document !== 'undefined' && document.hidden;
  if (typeof requestAnimationFrame !== 'function' || hidden) setTimeout(fn, 0);
  else requestAnimationFrame(() => setTimeout(fn, 0));
}
