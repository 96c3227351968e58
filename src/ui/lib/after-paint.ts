/** How long work put off until after the next frame waits at most: a tab hidden meanwhile draws no frame to wait for. */
export const AFTER_PAINT_LATEST_MS = 100;

/** Work waiting for the next frame; the frame's callback hands it to one task, and later calls start a new batch. */
let waiting: (() => void)[] | null = null;
let waitingSince = 0;
/** The frame and timer functions the waiting batch asked with: a batch asked through others (a test's stubs) is not joined. */
let waitingWith: { raf: typeof requestAnimationFrame; timer: typeof setTimeout } | null = null;

function runBatch(batch: (() => void)[]): void {
  for (const fn of batch) {
    try {
      fn();
    } catch (error) {
      // One failure must not keep the rest of the batch from running; it is still reported as uncaught.
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

/**
 * Runs `fn` in a task after the next frame is out, so work that can wait (a storage write, scrolling into view, the
 * cache's notifications to components) does not hold up what that frame shows. Calls made before one frame share one
 * animation-frame request and one task after it, in the order they were made (with no microtask break between them:
 * a render one piece sets off commits after the later pieces have run, not before them). A hidden tab draws no frames: there,
 * and in a tab hidden before its frame came, it runs after a timer instead.
 */
export function afterNextPaint(fn: () => void): void {
  const hidden = typeof document !== 'undefined' && document.hidden;
  if (typeof requestAnimationFrame !== 'function' || hidden) {
    setTimeout(fn, 0);
    return;
  }
  // A batch older than its fallback is left alone (a timer that will not run, as under a test's stopped clock), as is
  // one asked through other frame or timer functions, or under a clock that went back (a test's new fake clock).
  const age = performance.now() - waitingSince;
  if (waiting && age >= 0 && age < AFTER_PAINT_LATEST_MS && waitingWith?.raf === requestAnimationFrame && waitingWith.timer === setTimeout) {
    waiting.push(fn);
    return;
  }
  const batch = (waiting = [fn]);
  waitingSince = performance.now();
  waitingWith = { raf: requestAnimationFrame, timer: setTimeout };
  let ran = false;
  const once = () => {
    if (ran) return;
    ran = true;
    clearTimeout(latest);
    runBatch(batch);
  };
  const latest = setTimeout(() => {
    if (waiting === batch) waiting = null;
    once();
  }, AFTER_PAINT_LATEST_MS);
  requestAnimationFrame(() => {
    if (waiting === batch) waiting = null;
    setTimeout(once, 0);
  });
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
