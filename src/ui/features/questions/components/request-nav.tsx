import { VisuallyHidden } from '../../../components/ui/visually-hidden.tsx';
import { commands, type CommandContext } from '../commands.ts';
import { CommandButton } from './command-button.tsx';

/**
 * The labelled request pager, "Request ‹ 2/3 ›" (U6), read as "Request 2 of 3"; the arrows wrap around, so neither
 * ever turns off under the pointer.
 */
export function RequestNav({ ctx, position }: { ctx: CommandContext; position: number }) {
  if (ctx.requestCount < 2) return null;
  return (
    <div className="qd-nav" role="group" aria-label="Pending requests">
      <span className="qd-nav-label" aria-hidden="true">
        Request
      </span>
      <CommandButton command={commands.previousRequest} ctx={ctx} variant="ghost" icon="‹" />
      <span className="qd-nav-position">
        <span aria-hidden="true">
          {position}/{ctx.requestCount}
        </span>
        <VisuallyHidden>
          Request {position} of {ctx.requestCount}
        </VisuallyHidden>
      </span>
      <CommandButton command={commands.nextRequest} ctx={ctx} variant="ghost" icon="›" />
    </div>
  );
}
