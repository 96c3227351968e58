import { commands, type CommandContext } from '../commands.ts';
import { CommandButton } from './command-button.tsx';
import { KeyHints } from './key-hints.tsx';

/** Skip on the left; Back and Next, or Submit on the last step, on the right (U2, U5). */
export function StepperFooter({ ctx, error, choices = 0 }: { ctx: CommandContext; error: string | null; choices?: number }) {
  const stepping = !ctx.stacked && ctx.questionCount > 1;
  const last = !stepping || ctx.step === ctx.questionCount - 1;
  return (
    <div className="qd-footer">
      {error && (
        <p className="qd-problem qd-footer-error" role="alert">
          {error}
        </p>
      )}
      <CommandButton command={commands.skip} ctx={ctx} variant="ghost" />
      <span className="qd-spacer" />
      {ctx.busy ? <span className="qd-muted">Sending…</span> : <KeyHints ctx={ctx} last={last} choices={choices} />}
      {stepping && <CommandButton command={commands.back} ctx={ctx} hint={false} />}
      {last ? (
        <CommandButton command={commands.submit} ctx={ctx} variant="primary" hint={false} />
      ) : (
        <CommandButton command={commands.next} ctx={ctx} variant="primary" hint={false} />
      )}
    </div>
  );
}
