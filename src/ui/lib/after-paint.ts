/** How long work put off until after the next frame waits at most: a tab hidden meanwhile draws no frame to wait for. */
export const AFTER_PAINT_LATEST_MS = 100;

/**
 * Runs `fn` in a task after the next frame is out, so work that can wait (a storage write, scrolling into view, the
 * cache's notifications to components) does not hold up what that frame shows. A hidden tab draws no frames: there,
 * and in a tab hidden before its frame came, it runs after a timer instead.
 */
export function afterNextPaint(fn: () => void): void {
  const hidden = typeof document !== 'undefined' && document.hidden;
  if (typeof requestAnimationFrame !== 'function' || hidden) {
    setTimeout(fn, 0);
    return;
  }
  let ran = false;
  const once = () => {
    if (ran) return;
    ran = true;
    clearTimeout(latest);
    fn();
  };
  const latest = setTimeout(once, AFTER_PAINT_LATEST_MS);
  requestAnimationFrame(() => setTimeout(once, 0));
}

/**
 * `afterNextPaint`, or at once if the page is left first (`pagehide`): for work a closed tab must not lose, such as a
 * storage write put off for the frame.
 */
export function afterNextPaintOrLeave(fn: () => void): void {
  const canListen = typeof addEventListener === 'function';
  let ran = false;
  const once = () => {
    if (ran) return;
    ran = true;
    // A test's window can be torn down before the timer runs: then there is nothing left to remove.
    if (canListen && typeof removeEventListener === 'function') removeEventListener('pagehide', once);
    fn();
  };
  if (canListen) addEventListener('pagehide', once);
  afterNextPaint(once);
}
