import type { ReactNode } from 'react';
import { Button, type ButtonProps } from '../../../components/ui/button.tsx';
import { VisuallyHidden } from '../../../components/ui/visually-hidden.tsx';
import { IS_MAC, type CommandContext, type DockCommand } from '../commands.ts';
import { KbdHint } from './kbd-hint.tsx';

type Props = {
  command: DockCommand;
  ctx: CommandContext;
  variant?: ButtonProps['variant'];
  /** Shown instead of the label, which stays the accessible name (as hidden text, so it never mismatches a visible label). */
  icon?: ReactNode;
  /** A shorter visible text; the full label stays the accessible name and begins with it. */
  short?: string;
  hint?: boolean;
};

/** A button driven by the command registry: same label, enabled state, action and key hint as the keyboard. */
export function CommandButton({ command, ctx, variant = 'secondary', icon, short, hint = true }: Props) {
  const keys = hint ? command.keys?.(IS_MAC) : undefined;
  const enabled = command.enabled(ctx);
  return (
    <Button
      variant={variant}
      size="sm"
      className="qd-command"
      // aria-disabled keeps focus on the button while a submit is in flight; a disabled one would drop it.
      aria-disabled={!enabled || undefined}
      title={icon ? command.label : undefined}
      aria-keyshortcuts={command.shortcut?.(IS_MAC)}
      aria-label={short ? command.label : undefined}
      onClick={() => {
        if (enabled) command.run(ctx);
      }}
    >
      {short ? (
        <>
          {icon && <span aria-hidden="true">{icon}</span>}
          {short}
        </>
      ) : icon ? (
        <>
          <span aria-hidden="true">{icon}</span>
          <VisuallyHidden>{command.label}</VisuallyHidden>
        </>
      ) : (
        command.label
      )}
      {keys && <KbdHint keys={keys} />}
    </Button>
  );
}
