import { IS_MAC, type CommandContext } from '../commands.ts';

/** The keys, said once in a quiet line instead of on every control; screen readers get `aria-keyshortcuts` instead. */
export function KeyHints({ ctx, last }: { ctx: CommandContext; last: boolean }) {
  if (ctx.stacked) return null;
  const mod = IS_MAC ? '⌘' : 'Ctrl';
  return (
    <span className="qd-hints" aria-hidden="true">
      <span>
        <kbd>1</kbd>–<kbd>9</kbd> choose
      </span>
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
