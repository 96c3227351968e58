import { afterNextPaint } from './after-paint.ts';

export type FocusAfterPaint = {
  /** Moves focus (runs once: after the next frame, or at the first key pressed before it). */
  focus(): void;
  /** The person moved focus or pressed the pointer first: their choice stands, and `focus` does not run. */
  yielded(): void;
};

/**
 * Moves focus once the frame that shows its target is out, not in the task that rendered it: `focus()` lays the whole
 * document out on the spot to report the focused element's place, and that layout would otherwise sit in front of the
 * first paint. Until then a key pressed goes where focus is about to be: focus moves at once and the key is handed to
 * the new focus (the element that had it, such as a composer just hidden, never sees it), so a number or Ctrl+Enter
 * pressed the moment a question shows does what it does once focus is there. Tab is left to move on from the new focus.
 * Returns a cancel, for when what asked for the focus is gone before it ran.
 */
export function focusAfterPaint({ focus, yielded }: FocusAfterPaint): () => void {
  let done = false;
  const stop = () => {
    done = true;
    removeEventListener('keydown', onKey, true);
    removeEventListener('focusin', onOtherFocus, true);
    removeEventListener('pointerdown', onOtherFocus, true);
  };
  const run = () => {
    if (done) return;
    stop();
    focus();
  };
  function onOtherFocus() {
    if (done) return;
    stop();
    yielded();
  }
  function onKey(e: KeyboardEvent) {
    const from = e.target;
    run();
    const to = document.activeElement;
    if (!(to instanceof HTMLElement) || e.key === 'Tab' || (from instanceof Node && to.contains(from))) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    // The event is its own init dictionary: key, code, location, repeat, the modifiers, bubbles and cancelable carry over.
    to.dispatchEvent(new KeyboardEvent(e.type, e));
  }
  addEventListener('keydown', onKey, true);
  addEventListener('focusin', onOtherFocus, true);
  addEventListener('pointerdown', onOtherFocus, true);
  afterNextPaint(run);
  return stop;
}
