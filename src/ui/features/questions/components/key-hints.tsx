import { IS_MAC, type CommandContext } from '../commands.ts';

/**
 * The keys, said once in a quiet line instead of on every control; screen readers get `aria-keyshortcuts` instead.
 * `choices`: how many number keys the shown question takes (its options and Other).
 */
export function KeyHints({ ctx, last, choices }: { ctx: CommandContext; last: boolean; choices: number }) {
  if (ctx.stacked) return null;
  const mod = IS_MAC ? '⌘' : 'Ctrl';
  return (
    <span className="qd-hints" aria-hidden="true">
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
      <span>
        <kbd>{mod}</kbd>
        <kbd>Enter</kbd> {last ? 'submit' : 'next'}
      </span>
      <span>
        <kbd>Esc</kbd> collapse
      </span>
    </span>
  );
}
