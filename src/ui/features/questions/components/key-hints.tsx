import { useEffect, useRef, useState, type RefObject } from 'react';
import { IS_MAC, isTextField, type CommandContext } from '../commands.ts';

/** Whether focus sits in a text field outside the dock holding `ref` (the composer): keys type there, not into the question. */
function useTypingElsewhere(ref: RefObject<HTMLElement | null>): boolean {
  const [elsewhere, setElsewhere] = useState(false);
  useEffect(() => {
    const update = () => {
      const active = document.activeElement;
      const region = ref.current?.closest('[role="region"]');
      setElsewhere(isTextField(active) && !!region && !region.contains(active));
    };
    update();
    // During focusout the active element is already the body, so both events leave the right answer.
    document.addEventListener('focusin', update);
    document.addEventListener('focusout', update);
    return () => {
      document.removeEventListener('focusin', update);
      document.removeEventListener('focusout', update);
    };
  }, [ref]);
  return elsewhere;
}

/**
 * The keys, said once in a quiet line instead of on every control; screen readers get `aria-keyshortcuts` instead.
 * `choices`: how many number keys the shown question takes (its options and Other). While focus is in the message
 * box the keys type there (U8), so the line says that and how to get to the question instead.
 */
export function KeyHints({ ctx, last, choices }: { ctx: CommandContext; last: boolean; choices: number }) {
  const ref = useRef<HTMLSpanElement>(null);
  const elsewhere = useTypingElsewhere(ref);
  if (ctx.stacked) return null;
  const mod = IS_MAC ? '⌘' : 'Ctrl';
  if (elsewhere)
    return (
      <span ref={ref} className="qd-hints" aria-hidden="true" data-focus="composer">
        <span>Keys type in your message</span>
        <span>
          <kbd>/question</kbd> <kbd>Enter</kbd> or click to answer here
        </span>
      </span>
    );
  return (
    <span ref={ref} className="qd-hints" aria-hidden="true">
      {choices > 0 && (
        <span>
          <kbd>1</kbd>
          {choices > 1 && (
            <>
              –<kbd>{Math.min(choices, 9)}</kbd>
            </>
          )}{' '}
          choose
        </span>
      )}
      {(!last || ctx.mayAnswer) && (
        <span>
          <kbd>{mod}</kbd>
          <kbd>Enter</kbd> {last ? 'submit' : 'next'}
        </span>
      )}
      <span>
        <kbd>Esc</kbd> collapse
      </span>
    </span>
  );
}
